import { z } from 'zod';

// The site's Content-Security-Policy forbids eval. Zod probes `new Function('')` to decide
// whether it may compile its object parsers; in the browser that probe is blocked and reported
// as a CSP violation (Lighthouse counts it against best practices). Interpreted parsing is fast
// enough for scenarios and share links, so zod is told not to try. Imported first by every
// entry point that runs in a browser: the page and its workers.
z.config({ jitless: true });
