import { RECIPES, RESOURCE_KINDS, nextClientId, type SandboxClient, type SandboxSpec } from './sandboxModel';

/** The sandbox's world builder: nodes, clients and recipes, the resource. */
export function SandboxForm({ spec, onChange }: { spec: SandboxSpec; onChange: (spec: SandboxSpec) => void }) {
  const set = (patch: Partial<SandboxSpec>) => onChange({ ...spec, ...patch });
  const setClient = (i: number, patch: Partial<SandboxClient>) =>
    set({ clients: spec.clients.map((c, j) => (j === i ? { ...c, ...patch } : c)) });
  const num = (value: string, fallback: number) =>
    value.trim() === '' || !Number.isFinite(Number(value)) ? fallback : Number(value);
  const fenceable = spec.resourceKind === 'store' || spec.resourceKind === 'db-row';

  return (
    <div className="sandbox-form">
      <div className="sandbox-row">
        <label>
          Title
          <input type="text" value={spec.title} onChange={(e) => set({ title: e.target.value })} />
        </label>
        <label>
          Seed
          <input
            type="number"
            min={0}
            value={spec.seed}
            onChange={(e) => set({ seed: Math.max(0, Math.floor(num(e.target.value, 0))) })}
          />
        </label>
        <label>
          Redis nodes
          <input
            type="number"
            min={1}
            max={7}
            value={spec.nodes}
            onChange={(e) => set({ nodes: Math.max(1, Math.min(7, Math.floor(num(e.target.value, 1)))) })}
          />
        </label>
      </div>
      <div className="sandbox-row">
        <label>
          Resource
          <select
            value={spec.resourceKind}
            onChange={(e) => set({ resourceKind: e.target.value as SandboxSpec['resourceKind'] })}
          >
            {RESOURCE_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <label className="sandbox-check">
          <input
            type="checkbox"
            checked={fenceable && spec.fencing}
            disabled={!fenceable}
            onChange={(e) => set({ fencing: e.target.checked })}
          />
          Fencing tokens
        </label>
      </div>
      <table className="sandbox-clients">
        <caption>Clients</caption>
        <thead>
          <tr>
            <th scope="col">Id</th>
            <th scope="col">Name</th>
            <th scope="col">Recipe</th>
            <th scope="col">TTL (s)</th>
            <th scope="col">Work (s)</th>
            <th scope="col">Start (s)</th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {spec.clients.map((c, i) => (
            <tr key={c.id}>
              <th scope="row" data-label="Client">
                {c.id}
              </th>
              <td data-label="Name">
                <input
                  type="text"
                  aria-label={`Name of client ${c.id}`}
                  value={c.label}
                  onChange={(e) => setClient(i, { label: e.target.value })}
                />
              </td>
              <td data-label="Recipe" className="sandbox-recipe">
                <select
                  aria-label={`Recipe of client ${c.id}`}
                  value={c.recipe}
                  onChange={(e) => setClient(i, { recipe: e.target.value as SandboxClient['recipe'] })}
                >
                  {RECIPES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              </td>
              <td data-label="TTL (s)">
                <input
                  type="number"
                  min={0.001}
                  step={0.5}
                  aria-label={`TTL of client ${c.id} in seconds`}
                  value={c.ttlS}
                  onChange={(e) => setClient(i, { ttlS: num(e.target.value, c.ttlS) })}
                />
              </td>
              <td data-label="Work (s)">
                <input
                  type="number"
                  min={0}
                  step={0.5}
                  aria-label={`Work time of client ${c.id} in seconds`}
                  value={c.workS}
                  onChange={(e) => setClient(i, { workS: num(e.target.value, c.workS) })}
                />
              </td>
              <td data-label="Start (s)">
                <input
                  type="number"
                  min={0}
                  step={0.5}
                  aria-label={`Start time of client ${c.id} in seconds`}
                  value={c.startAtS}
                  onChange={(e) => setClient(i, { startAtS: num(e.target.value, c.startAtS) })}
                />
              </td>
              <td>
                <button
                  type="button"
                  className="button button-secondary sandbox-remove"
                  disabled={spec.clients.length <= 1}
                  onClick={() => set({ clients: spec.clients.filter((_, j) => j !== i) })}
                >
                  Remove<span className="visually-hidden"> {c.id}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button
        type="button"
        className="button button-secondary"
        disabled={spec.clients.length >= 8}
        onClick={() => {
          const id = nextClientId(spec.clients);
          set({
            clients: [
              ...spec.clients,
              { id, label: `Client ${id}`, recipe: 'lease-with-token', ttlS: 10, workS: 2, startAtS: 0 },
            ],
          });
        }}
      >
        Add a client
      </button>
    </div>
  );
}
