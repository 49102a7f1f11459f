import { describe, expect, it } from 'vitest';
import { readChosenFile } from './readChosenFile';

const named = (parts: BlobPart[], name: string) => Object.assign(new Blob(parts), { name });

describe('a chosen file too large for what it should be is refused before it is read', () => {
  it('refuses a 22 MB lesson by its size, naming the file and the limit', async () => {
    const file = named([new Uint8Array(22_000_000)], 'huge.md');
    let read = false;
    file.text = async () => ((read = true), '');
    expect(await readChosenFile(file, 256_000, 'a lesson file')).toEqual({
      ok: false,
      message:
        '"huge.md" is too large for a lesson file (22.0 MB; Lockstep reads up to 256,000 characters), so it was not opened. Check that you chose the right file.',
    });
    expect(read).toBe(false);
  });

  it('refuses a file within the byte budget whose text is still over the limit', async () => {
    const result = await readChosenFile(named(['x'.repeat(1500)], 'long.yaml'), 1000, 'a scenario file');
    expect(result.ok).toBe(false);
  });

  it('reads a file within the limit', async () => {
    expect(await readChosenFile(named(['id: x\n'], 'ok.yaml'), 1000, 'a scenario file')).toEqual({
      ok: true,
      text: 'id: x\n',
    });
  });
});
