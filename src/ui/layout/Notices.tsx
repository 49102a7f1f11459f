import { useNotices } from '../progress/noticeStore';

/** Banners about the learner's saved progress (recovered, memory-only, imported). */
export function Notices() {
  const notices = useNotices((s) => s.notices);
  const dismiss = useNotices((s) => s.dismiss);
  if (!notices.length) return null;
  return (
    <div className="notices" role="region" aria-label="Notices">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice-${n.tone}`} role={n.tone === 'warning' ? 'alert' : 'status'}>
          <p>{n.text}</p>
          <button type="button" className="button button-quiet" onClick={() => dismiss(n.id)}>
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}
