import { describe, expect, it } from 'vitest';
import { gradeCsv, type GradeRow } from './gradeCsv';

const row: GradeRow = {
  file: 'a.json',
  learner: 'Ada "the Countess", L.',
  lesson: 'Clinic: DEL',
  result: 'failed',
  detail: 'breaks single writer:\nseed 3',
  note: '',
  runs: 12,
  breakingRun: '#/sandbox?run=x',
};

describe('gradeCsv', () => {
  it('writes a header and one quoted line per submission that a spreadsheet reads back field for field', () => {
    const csv = gradeCsv([row]);
    expect(csv).toBe(
      '"learner","lesson","result","detail","note","runs","file"\r\n"Ada ""the Countess"", L.","Clinic: DEL","failed","breaks single writer:\nseed 3","","12","a.json"\r\n',
    );
  });
});
