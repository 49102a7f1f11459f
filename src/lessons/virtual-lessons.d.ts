/** The catalog built at compile time by src/lessons/vitePlugin.ts. */
declare module 'virtual:lessons' {
  import type { Course, Lesson } from './types';
  import type { Diagnostic } from '../scenario/diagnostic';
  export const courses: Course[];
  export const lessons: Lesson[];
  export const diagnostics: Diagnostic[];
}
