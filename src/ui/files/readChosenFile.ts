/**
 * Reads a file the learner or instructor chose (a file input, a drop), refusing one too large for
 * what it should be before reading a byte of it: a 22 MB "lesson" read into a text box froze the
 * page for half a minute. `maxChars` is the limit the text would be checked against once read
 * (see scenario/inputBounds.ts); UTF-8 takes at most four bytes a character.
 *
 * @param what names the file in the refusal: "a lesson file", "a scenario file".
 */
export async function readChosenFile(
  file: Blob & { name: string },
  maxChars: number,
  what: string,
): Promise<{ ok: true; text: string } | { ok: false; message: string }> {
  const tooBig = {
    ok: false as const,
    message: `"${file.name}" is too large for ${what} (${megabytes(file.size)}; Lockstep reads up to ${maxChars.toLocaleString('en')} characters), so it was not opened. Check that you chose the right file.`,
  };
  if (file.size > maxChars * 4) return tooBig;
  const text = await file.text();
  return text.length > maxChars ? tooBig : { ok: true, text };
}

function megabytes(bytes: number): string {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.ceil(bytes / 1000)} KB`;
}
