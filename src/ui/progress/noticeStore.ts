import { create } from 'zustand';

/** A message in the banner area at the top of every page, e.g. "progress recovered". */
export interface Notice {
  id: string;
  tone: 'info' | 'warning';
  text: string;
}

interface NoticeState {
  notices: Notice[];
  /** Shows a notice; a second one with the same id replaces the first instead of stacking. */
  show(notice: Notice): void;
  dismiss(id: string): void;
}

export const useNotices = create<NoticeState>((set) => ({
  notices: [],
  show: (notice) => set((s) => ({ notices: [...s.notices.filter((n) => n.id !== notice.id), notice] })),
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
}));
