import { chromium } from 'playwright-core';
const [url, out, w = '1280', h = '800', full = 'full', action = ''] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const page = await browser.newPage({ viewport: { width: Number(w), height: Number(h) } });
await page.goto(url);
await page.waitForTimeout(2500);
if (action === 'play') {
  const btn = page.getByRole('button', { name: 'Play' }).first();
  await btn.scrollIntoViewIfNeeded();
  await page.getByRole('combobox', { name: 'Speed' }).first().selectOption('8');
  await btn.click();
  await page.waitForTimeout(4000);
  await page.getByRole('region', { name: /^Simulation/ }).first().scrollIntoViewIfNeeded();
}
if (action === 'fence') {
  await page.getByRole('checkbox', { name: 'Fencing tokens' }).first().check();
  await page.getByRole('combobox', { name: 'Speed' }).first().selectOption('8');
  await page.getByRole('button', { name: 'Play' }).first().click();
  await page.waitForTimeout(4000);
  await page.getByRole('region', { name: /^Simulation/ }).first().scrollIntoViewIfNeeded();
}
await page.screenshot({ path: out, fullPage: full === 'full' });
await browser.close();
