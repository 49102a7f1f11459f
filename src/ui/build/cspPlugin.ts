import type { Plugin } from 'vite';

/**
 * The Content-Security-Policy of the built site. Scripts only from our own origin; the Lua VM is
 * WebAssembly, which needs 'wasm-unsafe-eval' (it does not allow JavaScript eval). Inline style
 * attributes stay allowed because D3 and React set element styles; lessons cannot inject any,
 * since raw HTML in lessons is never rendered. Images come from the site itself, or from data:
 * URLs (the timeline's PNG export draws its SVG from one); a lesson's image from another site is
 * shown as a link to it, never loaded (src/lessons/sanitize.ts), so no other origin is allowed.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

/**
 * Injects the CSP as a `<meta>` at build time only: the dev server needs inline scripts for
 * hot reload, and a static host may not let us set headers.
 */
export function cspPlugin(policy: string = CONTENT_SECURITY_POLICY): Plugin {
  return {
    name: 'lockstep-csp',
    apply: 'build',
    transformIndexHtml() {
      return [
        { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: policy }, injectTo: 'head-prepend' },
      ];
    },
  };
}
