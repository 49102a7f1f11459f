/**
 * The catalog index built at compile time by src/lessons/vitePlugin.ts: everything but the
 * lesson bodies, which `loadLesson` fetches one chunk at a time.
 */
declare module 'virtual:lessons' {
  import type { Course, Lesson } from './types';
  import type { LessonEntry } from './lessonIndex';
  import type { Diagnostic } from '../scenario/diagnostic';
  export const courses: Course[];
  export const lessons: LessonEntry[];
  export const diagnostics: Diagnostic[];
  /** The lesson's full body (its chunk is fetched on first call); rejects when it cannot be loaded. */
  export function loadLesson(slug: string): Promise<Lesson>;
}
