import { formatDiagnostic, type Diagnostic } from '../../scenario/diagnostic';

/** A block that failed validation: the author sees exactly what to fix, where. */
export function InvalidBlock({ lang, diagnostics }: { lang: string; diagnostics: Diagnostic[] }) {
  return (
    <section className="block invalid-block" role="note" aria-label={`Broken ${lang} block`}>
      <p className="block-kicker">This {lang} block has a problem</p>
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
