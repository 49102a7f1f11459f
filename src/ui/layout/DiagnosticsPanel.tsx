import { formatDiagnostic } from '../../scenario/diagnostic';
import { useCatalog } from '../catalog/catalogStore';

/**
 * Lesson validation problems, listed at the top of the page while authoring (`npm run dev`), so
 * a typo shows up where the author is looking. Production builds do not show it; lessons:check
 * is the gate there.
 */
export function DiagnosticsPanel() {
  const diagnostics = useCatalog((s) => s.diagnostics);
  if (!import.meta.env.DEV || !diagnostics.length) return null;
  return (
    <section className="diagnostics" aria-label="Lesson problems">
      <h2>
        {diagnostics.length} lesson problem{diagnostics.length === 1 ? '' : 's'}
      </h2>
      <ul>
        {diagnostics.map((d, i) => (
          <li key={i}>
            <code>{formatDiagnostic(d)}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
