/**
 * A Lua script as the body of an EVAL step's `- |` block in a test scenario's YAML: every line
 * indented to sit under `          - |` in a client's step list, so that script line n is YAML
 * line n after the `|`. The workbench's hostile-script tests write their scenarios this way.
 */
export function luaBlock(script: string): string {
  return script
    .split('\n')
    .map((line) => `            ${line}`)
    .join('\n');
}
