// A step of the VS Code scenario (run.mjs): the files of the patch changed
// on disk by another program, the fsrb command line (FSRB_CLI), while VS
// Code holds them as documents (src/app.py in an editor, the others loaded
// by the edits and synced to the server). Starts where "Revert all blocks"
// + Save All ends (the disk is fixture/before, the patch ready) and ends
// there again.
//   - The CLI applies the patch: VS Code reloads its unmodified documents
//     itself, the status bar says "fsrb: applied", no editor is dirty,
//     "Apply all blocks" changes nothing.
//   - src/app.py with unsaved changes when the CLI reverts the patch: a
//     disk-conflict error on its blocks, no "Apply all blocks"; "File:
//     Revert File" settles it.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export async function onDisk(t) {
  const { page, check, log, poll, WS, BEFORE, EXPECTED } = t;
  const cli = process.env.FSRB_CLI;
  if (!cli) {
    check(false, 'FSRB_CLI names the fsrb command line');
    return;
  }
  const run = (args, what) => {
    let out = '', ok = true;
    try {
      out = execFileSync(cli, args, { cwd: WS, env: { ...process.env, XDG_STATE_HOME: process.env.FSRB_CLI_STATE || join(WS, '..', 'state') }, encoding: 'utf8' });
    } catch (err) {
      ok = false;
      out = `${err.stdout || ''}${err.stderr || ''}`;
    }
    check(ok, what, out);
  };
  // (The item shows while a patch is the active editor: no waiting for it.)
  const status = async () => ((await t.fsrbItem.count()) > 0 ? (await t.fsrbItem.first().innerText().catch(() => '')).trim() : '');
  const dirty = () => page.locator('.tab.dirty').count();
  const dirtyNames = async () => (await page.locator('.tab.dirty').allInnerTexts()).map((x) => x.replace(/\s+/g, '')).join(', ');
  // Every dirty tab is src/app.py's (it may sit in two editor groups).
  const onlyAppDirty = async () => { const n = await dirtyNames(); return n !== '' && n.split(', ').every((x) => x === 'app.py'); };
  const markersText = () => t.markers.innerText().catch(() => '');
  // The code actions of the patch at block #1.
  const patchActions = async () => {
    await t.runCommand(page, 'View: Focus First Editor Group');
    await page.waitForSelector('.tab.active:has-text("change.fsrb")');
    await t.goToLine(page, 6);
    await page.keyboard.press('Control+.');
    const shown = await t.menu.waitFor({ timeout: 5000 }).then(() => true, () => false);
    const items = shown ? await t.menu.locator('.monaco-list-row').allInnerTexts() : [];
    await page.keyboard.press('Escape');
    return items;
  };
  if (!(await t.markers.isVisible().catch(() => false))) await page.keyboard.press('Control+Shift+M');

  // 1. The CLI applies the patch.
  await t.dismissToasts(page);
  run(['change.fsrb'], 'the fsrb CLI applied change.fsrb on disk');
  check(t.sameTree(EXPECTED).length === 0, 'the disk holds fixture/after', t.sameTree(EXPECTED).join('; '));
  await poll(async () => /^fsrb: applied$/.test(await status()), 15000);
  check(/^fsrb: applied$/.test(await status()), 'status bar after the CLI applied the patch: "fsrb: applied"', await status());
  check((await dirty()) === 0, 'no editor is dirty (VS Code reloaded the documents)', await dirtyNames());
  await t.openToSide(page, 'src/app.py', 'app.py');
  const appText = await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().innerText().catch(() => '');
  check(/goodbye/.test(appText) && /farewell\(sys\.argv\[1\]\)/.test(appText), 'the src/app.py editor shows the file as the CLI left it', appText.slice(0, 400));
  let items = await patchActions();
  log(`     code actions on block #1: ${items.join(' | ') || '(none)'}`);
  check(!items.some((s) => /Apply all/.test(s)) && items.filter((s) => /Revert all blocks/.test(s)).length === 1,
    'code actions: no "Apply all blocks", "Revert all blocks" once', items.join(' | '));
  const applied = t.tree(WS);
  await runQuiet(t, 'fsrb: Apply all blocks');
  await t.runCommand(page, 'File: Save All Files');
  await page.waitForTimeout(1000);
  const toasts = await t.toastTexts(page);
  check(!toasts.some((x) => x.error), '"Apply all blocks" again: no error', toasts.map((x) => x.text).join(' | '));
  check(t.sameTree(EXPECTED).length === 0 && [...applied].every(([p, b]) => t.tree(WS).get(p)?.equals(b)),
    '"Apply all blocks" + Save All: no byte changed', t.sameTree(EXPECTED).join('; '));
  await t.dismissToasts(page);

  // 2. src/app.py modified, then the CLI reverts the patch on disk.
  await t.openToSide(page, 'src/app.py', 'app.py');
  await t.goToLine(page, 1);
  await page.keyboard.press('Home');
  await page.keyboard.type('# an unsaved line');
  await page.keyboard.press('Enter');
  await poll(onlyAppDirty, 5000);
  log(`     dirty: ${await dirtyNames()}`);
  run(['--revert', 'change.fsrb'], 'the fsrb CLI reverted change.fsrb on disk, src/app.py modified in its editor');
  check(t.sameTree(BEFORE).length === 0, 'the disk holds fixture/before', t.sameTree(BEFORE).join('; '));
  const conflict = /src\/app\.py changed on disk while its buffer has unsaved changes/;
  await poll(async () => conflict.test(await markersText()), 15000);
  const problems = await markersText();
  check(conflict.test(problems), 'Problems: "src/app.py changed on disk while its buffer has unsaved changes"', problems);
  log(`     Problems panel: ${problems.replace(/\n+/g, ' | ').slice(0, 400)}`);
  items = await patchActions();
  // (The Problems panel draws only the rows in view: the lenses of the
  // two blocks say it.)
  const seen = new Set();
  for (const line of [12, 24]) {
    await t.goToLine(page, line);
    await page.waitForTimeout(300);
    for (const m of (await t.lensText()).matchAll(/#(\d) changed on disk, buffer unsaved/g)) seen.add(m[1]);
  }
  check(seen.has('2') && seen.has('3'), 'lenses "#2 changed on disk, buffer unsaved" and "#3 …" (src/app.py\'s blocks)', [...seen].join(', ') + ': ' + (await t.lensText()));
  log(`     code actions on block #1: ${items.join(' | ') || '(none)'}`);
  check(!items.some((s) => /Apply all|Revert all/.test(s)), 'code actions: neither "Apply all blocks" nor "Revert all blocks"', items.join(' | '));
  check(await onlyAppDirty(), 'the src/app.py editor kept its unsaved change (the only dirty one)', await dirtyNames());

  // "File: Revert File" in src/app.py takes the disk's text.
  await t.openToSide(page, 'src/app.py', 'app.py');
  await t.runCommand(page, 'File: Revert File');
  await poll(async () => (await dirty()) === 0, 5000);
  await t.runCommand(page, 'View: Focus First Editor Group');
  await page.waitForSelector('.tab.active:has-text("change.fsrb")');
  await poll(async () => !conflict.test(await markersText()) && /5\/5 blocks apply/.test(await status()), 15000);
  check(!conflict.test(await markersText()) && /fsrb: 5\/5 blocks apply/.test(await status()),
    '"File: Revert File": the conflict gone, status bar "fsrb: 5/5 blocks apply"', `${await status()}: ${(await markersText()).slice(0, 300)}`);
  check((await dirty()) === 0 && t.sameTree(BEFORE).length === 0, 'no editor dirty, the disk as before', await dirtyNames());
  // The editors as the step found them: the patch, src/app.py beside it.
  await t.runCommand(page, 'View: Close Other Editors in Group');
  await t.runCommand(page, 'View: Close Editors in Other Groups');
  await t.openToSide(page, 'src/app.py', 'app.py');
  await t.runCommand(page, 'View: Focus First Editor Group');
  await page.waitForSelector('.tab.active:has-text("change.fsrb")');
}

// Runs a palette command, leaving what it says on screen.
async function runQuiet(t, title) {
  await t.runCommand(t.page, title);
  await t.page.waitForTimeout(1500);
}
