// The VS Code scenario, driven through the real workbench in headless
// Chromium (playwright-core, Debian's chromium). Run by editors/e2e/vscode.sh.
// Exit: 0 passed, 1 a check failed, 2 another error, 3 a UI timeout (the
// caller retries once).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { onDisk } from './ondisk.mjs';

const env = (k) => {
  const v = process.env[k];
  if (!v) throw new Error(`${k} is not set`);
  return v;
};
const URL = env('FSRB_URL');
const WS = env('FSRB_WS');
const EXPECTED = env('FSRB_EXPECTED');
const BEFORE = join(EXPECTED, '..', 'before');
const SHOTS = env('FSRB_SHOTS');
const { chromium } = createRequire(import.meta.url)(env('FSRB_PLAYWRIGHT'));
const T0 = Number(process.env.FSRB_T0 || Date.now() / 1000);

const elapsed = () => (Date.now() / 1000 - T0).toFixed(1).padStart(6);
const log = (msg) => console.log(`[vscode ${elapsed()}s] ${msg}`);
// The failed checks again at the end: CI shows only the tail of the output.
const failed = [];
// diffLines names the lines where two texts differ, for a failed check:
// a flaky failure should say what it saw.
function diffLines(want, got) {
  const w = want.split('\n'), g = got.split('\n'), out = [];
  for (let i = 0; i < Math.max(w.length, g.length) && out.length < 5; i++) {
    if (w[i] !== g[i]) out.push(`line ${i + 1}: want ${JSON.stringify(w[i])}, on disk ${JSON.stringify(g[i])}`);
  }
  return out.join('; ');
}

function check(cond, what, detail) {
  if (cond) log(`ok   ${what}`);
  else {
    failed.push(what);
    log(`FAIL ${what}${detail ? `: ${String(detail).replace(/\s*\n\s*/g, ' | ').slice(0, 1200)}` : ''}`);
  }
  return cond;
}

// Every file under root (the patch excluded), with its bytes.
function tree(root) {
  const out = new Map();
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (!name.endsWith('.fsrb')) out.set(relative(root, p), readFileSync(p));
    }
  };
  walk(root);
  return out;
}
function sameTree(expected = EXPECTED) {
  const want = tree(expected);
  const have = tree(WS);
  const diffs = [];
  for (const [p, bytes] of want) {
    if (!have.has(p)) diffs.push(`${p} missing`);
    else if (!have.get(p).equals(bytes)) diffs.push(`${p} differs: ${JSON.stringify(have.get(p).toString())}`);
  }
  for (const p of have.keys()) if (!want.has(p)) diffs.push(`${p} should not exist`);
  return diffs;
}

async function poll(fn, ms, step = 200) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, step));
  }
}

// pollSteady is poll for a state that must last: fn true on every look for
// hold ms. Lenses vanish for a moment while an editor asks its providers
// again, and come back: one look in that moment is no answer.
async function pollSteady(fn, ms, hold = 1500, step = 200) {
  const end = Date.now() + ms;
  let since = 0;
  for (;;) {
    const v = await fn();
    const now = Date.now();
    if (!v) since = 0;
    else if (!since) since = now;
    if (v && now - since >= hold) return true;
    if (now > end) return false;
    await new Promise((r) => setTimeout(r, step));
  }
}

// lensRows is one look at the code lenses of a locator: each line's lenses
// as VS Code draws them ("#2 applies at x.txt:2 | Apply | Skip block"), the
// lines apart with " || ". (innerText breaks the line around each lens's
// separator, which a failed check's message folded into "| | |", as if
// some titles were empty.)
const lensRows = async (lenses) => (await lenses.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()).join(' || ');

// seeLenses looks at the lenses until want holds of a look, for ms at most,
// and gives that look (or the last): a check judges, and reports, the very
// look it waited for. An editor drops and redraws its lenses whenever its
// providers change, and a second look taken just after the one that passed
// may fall in that moment and find none.
async function seeLenses(lensText, want, ms) {
  let look = '';
  await poll(async () => want((look = await lensText())), ms);
  return look;
}

const shot = async (page, name) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, name) });
  log(`     screenshot ${relative(process.cwd(), join(SHOTS, name))}`);
};

async function main() {
  const context = await chromium.launchPersistentContext(env('FSRB_PROFILE'), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 760 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30000);
  try {
    await page.goto(URL);
    await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
    log('workbench loaded');

    // Open the patch from the explorer.
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'change.fsrb' });
    await row.waitFor({ timeout: 60000 });
    await row.dblclick();
    await page.waitForSelector('.tab.active:has-text("change.fsrb")');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.waitFor();
    log('patch opened');

    // Language mode and our status bar item.
    const langMode = page.locator('.statusbar-item#status\\.editor\\.mode');
    await poll(async () => /fsrb/.test(await langMode.innerText().catch(() => '')), 20000);
    check(/fsrb/.test(await langMode.innerText()), 'the patch has language mode fsrb', await langMode.innerText());
    const statusItem = page.locator('.statusbar-item', { hasText: /fsrb: \d+\/\d+ block/ });
    const fsrbItem = page.locator('.statusbar-item', { hasText: /^fsrb: (applied|\d+\/\d+)/ });
    await statusItem.waitFor({ timeout: 30000 });
    await poll(async () => /4\/5 blocks apply/.test(await statusItem.innerText()), 15000);
    check(/fsrb: 4\/5 blocks apply/.test(await statusItem.innerText()), 'status bar: "fsrb: 4/5 blocks apply"', await statusItem.innerText());
    check(/warning-kind/.test(await statusItem.getAttribute('class')), 'status bar: "4/5 blocks apply" in warning colours', await statusItem.getAttribute('class'));

    // Our code lenses are there; the merge-conflict extension's are not.
    const lenses = page.locator('.monaco-editor .codelens-decoration');
    const lensText = () => lensRows(lenses);
    let look = await seeLenses(lensText, (t) => /#1 applies at README\.md/.test(t), 20000);
    check(/#1 applies at README\.md/.test(look), 'code lens "#1 applies at README.md:3"', look);
    const userSettings = join(env('FSRB_UD'), 'User', 'settings.json');
    const off = () => /"merge-conflict\.codeLens\.enabled": false/.test(readFileSync(userSettings, 'utf8'));
    await poll(off, 15000);
    check(off(), 'merge-conflict switched off while the patch is visible', readFileSync(userSettings, 'utf8'));
    await page.waitForTimeout(1000); // the merge-conflict extension and the editor catch up
    // Gone for good, not for the moment an editor re-asks its providers
    // (the check failed twice in three CI runs on a look taken in such a
    // moment), within 20 s on a loaded machine.
    await pollSteady(async () => !/Accept (Current|Incoming) Change/.test(await lensText()), 20000);
    check(!/Accept (Current|Incoming) Change/.test(await lensText()), 'no merge-conflict "Accept Current Change" lenses on the patch', await lensText());


    // Inlay hints at the end of the opening line of each block that
    // applies; none on the ambiguous block #2 (its lens above says it).
    const viewText = () => page.locator('.editor-instance .monaco-editor .view-lines').first().innerText().catch(() => '');
    // (VS Code draws a hint's spaces as no-break spaces.)
    const hinted = (t) => /→\sREADME\.md:3/.test(t);
    await poll(async () => hinted(await viewText()), 15000);
    const lines = (await viewText()).split('\n');
    check(hinted(await viewText()) && !lines.some((l) => /SEARCH/.test(l) && /matches/.test(l)),
      'inlay hints: "→ README.md:3" after block #1\'s opening line, nothing after ambiguous block #2\'s', (await viewText()).slice(0, 600));

    // Problems panel: the two diagnostics.
    await page.keyboard.press('Control+Shift+M');
    const markers = page.locator('.markers-panel');
    await markers.waitFor();
    await poll(async () => /matches 2 places/.test(await markers.innerText()) && /has no file path/.test(await markers.innerText()), 20000);
    const problems = await markers.innerText();
    check(/block #2: SEARCH block matches 2 places in src\/app\.py/.test(problems), 'Problems: block #2 is ambiguous', problems);
    check(/block #3 has no file path/.test(problems), 'Problems: block #3 inherits its path', problems);
    check(/1 of 2\b[^\n]*\b5\b/.test(problems) && /2 of 2\b[^\n]*\b10\b/.test(problems), 'Problems: both places of block #2 (lines 5 and 10) as related information', problems);
    if (/in def farewell/.test(problems)) log('     related information names the enclosing definitions (tree-sitter)');
    // Put the cursor on the ambiguous block for the screenshot.
    await goToLine(page, 13);
    await page.waitForTimeout(500);
    await shot(page, 'vscode-diagnostics.png');

    // The palette commands: restart the server, show its log.
    const clientLog = () => {
      const logs = join(env('FSRB_UD'), 'logs');
      const found = [];
      const walk = (d) => { for (const n of readdirSync(d)) { const p = join(d, n); if (statSync(p).isDirectory()) walk(p); else if (n === 'fsrb.log') found.push(p); } };
      walk(logs);
      return found.map((f) => readFileSync(f, 'utf8')).join('\n');
    };
    const starts = () => (clientLog().match(/\[fsrb\] starting /g) || []).length;
    // VS Code pulls diagnostics when the server offers them: the Problems
    // panel above was filled by textDocument/diagnostic answers.
    check(/"pullDiagnostics": true/.test(clientLog()) && /"inlayHints": true/.test(clientLog()),
      'the server serves VS Code pull diagnostics and inlay hints (its initialize log)', (clientLog().match(/.*initialize.*/) || [''])[0]);
    const before = starts();
    await runCommand(page, 'fsrb: Restart server');
    await poll(() => starts() > before, 15000);
    await poll(async () => /4\/5 blocks apply/.test(await statusItem.innerText().catch(() => '')), 20000);
    check(starts() > before && /fsrb: 4\/5 blocks apply/.test(await statusItem.innerText().catch(() => '')),
      '"fsrb: Restart server": a new server started and validates the patch again', `${before} -> ${starts()} starts; ${await statusItem.innerText().catch(() => '(no status item)')}`);
    await runCommand(page, 'fsrb: Show server log');
    const panel = page.locator('.part.panel');
    await poll(async () => /\[fsrb\]/.test(await panel.innerText().catch(() => '')), 10000);
    check(/\[fsrb\]/.test(await panel.innerText().catch(() => '')), '"fsrb: Show server log" shows the fsrb output channel', (await panel.innerText().catch(() => '')).slice(0, 300));
    await page.keyboard.press('Control+Shift+M');
    await goToLine(page, 13);

    // The quick-fix menu on the ambiguous block. The server restarted a
    // few seconds ago: on a loaded machine its first answer may come after
    // the menu gave up (a CI run showed none once, and all three on the
    // retry), so the menu is asked for again, as a user would, up to three
    // times; the log says how many it took.
    const menu = page.locator('.action-widget:not(.action-list-submenu-panel)');
    let menuShown = false;
    let items = [];
    for (let tries = 1; tries <= 3; tries++) {
      await page.keyboard.press('Control+.');
      menuShown = await menu.waitFor({ timeout: 5000 }).then(() => true, () => false);
      items = menuShown ? await menu.locator('.action-list-item, .monaco-list-row').allInnerTexts() : [];
      if (items.some((t) => /farewell/.test(t))) {
        if (tries > 1) log(`     the quick-fix menu listed them on try ${tries}`);
        break;
      }
      await page.keyboard.press('Escape');
      await page.waitForTimeout(1000);
    }
    log(`     quick fixes on block #2: ${items.length ? items.join(' | ') : '(none)'}`);
    const fix = menuShown ? menu.locator('.monaco-list-row', { hasText: 'farewell' }).first() : null;
    if (fix && (await fix.count()) > 0) {
      await shot(page, 'vscode-quickfix-disambiguate.png');
      await fix.click();
      log('     applied the disambiguation quick fix');
    } else {
      // The server names each place's function (tree-sitter) and offers a
      // fix for each; a missing one is a regression, not a case to work
      // around by typing the lines in.
      check(false, 'the server offers a "target the occurrence in farewell" quick fix', items.join(' | ') || '(none)');
      await page.keyboard.press('Escape');
    }
    await poll(async () => !/matches 2 places/.test(await markers.innerText()), 15000);
    check(!/matches 2 places/.test(await markers.innerText()), 'Problems: the ambiguous diagnostic went away', await markers.innerText());
    await poll(async () => /5\/5 blocks apply/.test(await statusItem.innerText()), 15000);
    check(/fsrb: 5\/5 blocks apply/.test(await statusItem.innerText()), 'status bar: "fsrb: 5/5 blocks apply"', await statusItem.innerText());
    look = await seeLenses(lensText, (t) => /#2 applies at src\/app\.py:9/.test(t), 10000);
    check(/#2 applies at src\/app\.py:9/.test(look), 'code lens of block #2 follows: "#2 applies at src/app.py:9"', look);

    // The server follows unsaved target buffers: an edit typed into
    // src/app.py (not saved) shows in the patch's lens at once, and the
    // Problems panel gets nothing for src/app.py.
    await openToSide(page, 'src/app.py', 'app.py');
    await goToLine(page, 10);
    await page.keyboard.press('End');
    await page.keyboard.type('  # edited');
    look = await seeLenses(lensText, (t) => /#2 not found/.test(t), 10000);
    check(/#2 not found/.test(look), 'an unsaved edit of src/app.py: the lens of block #2 says "not found"', look);
    check(readFileSync(join(WS, 'src', 'app.py')).equals(readFileSync(join(BEFORE, 'src', 'app.py'))), 'the edit is not on disk',
      diffLines(readFileSync(join(BEFORE, 'src', 'app.py'), 'utf8'), readFileSync(join(WS, 'src', 'app.py'), 'utf8')));
    const resources = () => markers.locator('.monaco-list-row[aria-level="1"]').allInnerTexts();
    if (process.env.FSRB_E2E_DEBUG) writeFileSync('/tmp/markers.html', await markers.innerHTML());
    check((await resources()).every((t) => /change\.fsrb/.test(t)), 'Problems: only the patch has problems (nothing for the synchronized src/app.py)', (await resources()).join(' | '));
    for (let i = 0; i < '  # edited'.length; i++) await page.keyboard.press('Backspace');
    await runCommand(page, 'File: Save');
    look = await seeLenses(lensText, (t) => /#2 applies at src\/app\.py:9/.test(t), 10000);
    check(/#2 applies at src\/app\.py:9/.test(look), 'the edit removed and saved: the lens of block #2 applies again', look);
    // The lens follows the buffer, which may come before the save lands.
    await poll(() => readFileSync(join(WS, 'src', 'app.py')).equals(readFileSync(join(BEFORE, 'src', 'app.py'))), 10000);
    check(readFileSync(join(WS, 'src', 'app.py')).equals(readFileSync(join(BEFORE, 'src', 'app.py'))), 'src/app.py on disk as before');
    await runCommand(page, 'View: Close Editor');
    await page.waitForSelector('.tab.active:has-text("change.fsrb")');

    // Ctrl+. on block #1: "Apply all blocks" in the quick-fix menu.
    await goToLine(page, 6);
    await page.waitForTimeout(300);
    await page.keyboard.press('Control+.');
    await menu.waitFor();
    const applyAll = menu.locator('.monaco-list-row', { hasText: 'Apply all blocks' }).first();
    await applyAll.waitFor({ timeout: 10000 });
    const actions = await menu.locator('.monaco-list-row').allInnerTexts();
    log(`     code actions on block #1: ${actions.join(' | ')}`);
    check(actions.filter((t) => /Apply all blocks/.test(t)).length === 1, 'the code action menu lists "Apply all blocks" once', actions.join(' | '));
    check(!actions.some((t) => /Revert/.test(t)), 'no "Revert" action before applying', actions.join(' | '));
    await applyAll.hover();
    await page.waitForTimeout(300);
    await shot(page, 'vscode-quickfix-apply-all.png');
    await applyAll.click();
    log('     chose "Apply all blocks"');

    // Save All (VS Code also writes edits to files that were not open
    // straight to disk), then the disk holds after/.
    await runCommand(page, 'File: Save All Files');
    let diffs = await poll(async () => { const d = sameTree(); return d.length === 0 ? d : null; }, 15000) ?? sameTree();
    check(diffs.length === 0, 'disk: every file has the expected bytes (README.md, src/app.py, docs/guide/usage.md created, legacy/old.txt deleted)', diffs.join('; '));
    check(!existsSync(join(WS, 'legacy', 'old.txt')), 'disk: legacy/old.txt deleted');
    await poll(() => !existsSync(join(WS, 'legacy')), 5000);
    check(!existsSync(join(WS, 'legacy')), 'disk: legacy/, left empty, removed');

    // The applied state: the patch says so, nowhere an error, no stale lens.
    // The editor renders the lenses of the lines in view only: look at the
    // top of the patch, its middle and its end.
    const blockLenses = async () => {
      const seen = new Map();
      for (const line of [1, 24, 40]) {
        await goToLine(page, line);
        await page.waitForTimeout(150);
        for (const t of (await lenses.allInnerTexts()).join(' | ').split(/\s*\|\s*/)) {
          const m = /^#(\d+) /.exec(t);
          if (m) seen.set(m[1], t);
        }
      }
      await goToLine(page, 1);
      return [...seen.keys()].sort().map((k) => seen.get(k));
    };
    const allApplied = async () => { const b = await blockLenses(); return b.length === 5 && b.every((t) => /^#\d+ applied\b/.test(t)); };
    await poll(allApplied, 15000, 500);
    check(await allApplied(), 'code lenses: each of the 5 blocks says "#N applied …"', (await blockLenses()).join(' | '));
    look = await seeLenses(lensText, (t) => /Revert all blocks/.test(t), 10000);
    check(!/applies at|creates |deletes |Apply all/.test(look), 'no stale lens ("applies at", "Apply all") after Apply all', look);
    check(/Revert all blocks/.test(look), 'lens "Revert all blocks" over the applied patch', look);
    await poll(async () => /^fsrb: applied$/.test((await fsrbItem.innerText().catch(() => '')).trim()), 15000);
    check(/^fsrb: applied$/.test((await fsrbItem.innerText().catch(() => '')).trim()), 'status bar: "fsrb: applied"', await fsrbItem.innerText().catch(() => '(no status item)'));
    check(!/warning-kind|error-kind/.test(await fsrbItem.getAttribute('class')), 'status bar: "fsrb: applied" not in warning colours', await fsrbItem.getAttribute('class'));
    // Problems: nothing of fsrb above information level, no stale errors.
    await page.waitForTimeout(1500); // a stale view showed its errors for about a second
    const problemsNow = await markers.innerText();
    check(!/already-applied|file-exists|already applied|already exists/i.test(problemsNow), 'Problems: no "already applied" / "file exists" on the applied patch', problemsNow);
    check(await markers.locator('.codicon-error, .codicon-warning').count() === 0, 'Problems: no error or warning at all', problemsNow);
    log(`     Problems panel: ${problemsNow.replace(/\n+/g, ' | ').slice(0, 300)}`);
    // Code actions on the applied patch: "Revert all blocks" once, no "Apply all".
    await goToLine(page, 6);
    await page.keyboard.press('Control+.');
    const appliedShown = await menu.waitFor({ timeout: 5000 }).then(() => true, () => false);
    const appliedActions = appliedShown ? await menu.locator('.monaco-list-row').allInnerTexts() : [];
    log(`     code actions on applied block #1: ${appliedActions.join(' | ')}`);
    check(!appliedActions.some((t) => /Apply all/.test(t)), 'code action menu of the applied patch: no "Apply all blocks"', appliedActions.join(' | '));
    check(appliedActions.filter((t) => /Revert all blocks/.test(t)).length === 1, 'code action menu of the applied patch: "Revert all blocks" once', appliedActions.join(' | '));
    await page.keyboard.press('Escape');
    await runCommand(page, 'Source Action...');
    const sourceShown = await menu.waitFor({ timeout: 5000 }).then(() => true, () => false);
    const sourceActions = sourceShown ? await menu.locator('.monaco-list-row').allInnerTexts() : [];
    log(`     source actions on the applied patch: ${sourceActions.join(' | ') || '(none)'}`);
    check(!sourceActions.some((t) => /Apply all/.test(t)), 'source actions of the applied patch: no "Apply all blocks"', sourceActions.join(' | '));
    check(sourceActions.filter((t) => /Revert all blocks/.test(t)).length === 1, 'source actions of the applied patch: "Revert all blocks" once', sourceActions.join(' | '));
    await page.keyboard.press('Escape');

    // What the user sees: the applied patch beside src/app.py, with the
    // room of the side bars.
    for (const c of ['View: Close Primary Side Bar', 'View: Hide Secondary Side Bar']) {
      await runCommand(page, c).catch(async (err) => { log(`     (${err.message.split('\n')[0]})`); await page.keyboard.press('Escape'); });
    }
    await openToSide(page, 'src/app.py', 'app.py');
    await runCommand(page, 'View: Focus First Editor Group');
    await goToLine(page, 1);
    await poll(async () => /^fsrb: applied$/.test((await fsrbItem.innerText().catch(() => '')).trim()), 5000);
    await markers.hover({ position: { x: 400, y: 80 } });
    for (let i = 0; i < 3; i++) { await page.mouse.wheel(0, -2000); await page.waitForTimeout(200); } // the Problems panel from its top
    await page.mouse.move(640, 12); // no hover left over
    await page.waitForTimeout(800);
    await shot(page, 'vscode-applied.png');
    await runCommand(page, 'View: Show Explorer');

    // "Apply all" again, from the palette: nothing changes, no error.
    await dismissToasts(page);
    const applied = tree(WS);
    await runCommand(page, 'fsrb: Apply all blocks');
    await page.waitForTimeout(2000);
    const toasts = await toastTexts(page);
    log(`     notifications after "Apply all" on the applied patch: ${toasts.map((t) => t.text).join(' | ') || '(none)'}`);
    check(!toasts.some((t) => t.error), '"Apply all" again: no error notification', toasts.map((t) => t.text).join(' | '));
    const again = sameTree();
    check(again.length === 0 && [...applied].every(([p, b]) => tree(WS).get(p)?.equals(b)), '"Apply all" again: no byte changed', again.join('; '));
    await dismissToasts(page);

    // "Revert all blocks" from the palette, Save All: before/ again.
    await runCommand(page, 'fsrb: Revert all blocks');
    await page.waitForTimeout(1500);
    const revertToasts = await toastTexts(page);
    log(`     notifications after "Revert all blocks": ${revertToasts.map((t) => t.text).join(' | ') || '(none)'}`);
    check(!revertToasts.some((t) => t.error || t.warning), '"Revert all blocks": no error or warning notification (the editor applied the whole edit)', revertToasts.map((t) => t.text).join(' | '));
    await runCommand(page, 'File: Save All Files');
    diffs = await poll(async () => { const d = sameTree(BEFORE); return d.length === 0 ? d : null; }, 15000) ?? sameTree(BEFORE);
    check(diffs.length === 0, '"Revert all blocks" + Save All: every file equals before/ (docs/guide/usage.md gone, legacy/old.txt back)', diffs.join('; '));
    // The folders go last in the edit, which a loaded machine may still be
    // applying when the files already match.
    await poll(() => !existsSync(join(WS, 'docs')), 10000);
    check(!existsSync(join(WS, 'docs')), '"Revert all blocks": docs/guide/ and docs/, created for usage.md and left empty, removed');
    await poll(async () => /5\/5 blocks apply/.test(await fsrbItem.innerText().catch(() => '')), 15000);
    check(/fsrb: 5\/5 blocks apply/.test(await fsrbItem.innerText().catch(() => '')), 'status bar after the revert: "fsrb: 5/5 blocks apply"', await fsrbItem.innerText().catch(() => ''));
    look = await seeLenses(lensText, (t) => /#1 applies at README\.md:3/.test(t), 10000);
    check(/#1 applies at README\.md:3/.test(look), 'lens after the revert: "#1 applies at README.md:3"', look);

    // The same patch applied and reverted on disk by the fsrb command line
    // (ondisk.mjs).
    await onDisk({ page, check, log, poll, WS, BEFORE, EXPECTED, fsrbItem, markers, menu, lensText, runCommand, goToLine, openToSide, toastTexts, dismissToasts, sameTree, tree });

    // "fsrb: Preview all blocks": a multi-file diff of the whole change,
    // nothing written; its "Apply all" applies every block, and with
    // fsrb.showChangedFiles on, the changed files open (README.md, the
    // first, in front).
    const settings = JSON.parse(readFileSync(userSettings, 'utf8'));
    writeFileSync(userSettings, JSON.stringify({ ...settings, 'fsrb.showChangedFiles': true }, null, 2));
    await dismissToasts(page);
    for (const c of ['View: Close Primary Side Bar', 'View: Hide Panel', 'View: Single Column Editor Layout']) {
      await runCommand(page, c).catch(async (err) => { log(`     (${err.message.split('\n')[0]})`); await page.keyboard.press('Escape'); });
    }
    await runCommand(page, 'View: Focus First Editor Group');
    await page.waitForSelector('.tab.active:has-text("change.fsrb")');
    await page.waitForTimeout(1000); // the setting reaches the server
    await runCommand(page, 'fsrb: Preview all blocks');
    const previewTab = page.locator('.tab', { hasText: 'fsrb preview: change.fsrb' });
    await previewTab.first().waitFor({ timeout: 15000 });
    const toast = page.locator('.notifications-toasts .notification-list-item', { hasText: 'fsrb: preview of change.fsrb' });
    const toastShown = await toast.waitFor({ timeout: 15000 }).then(() => true, () => false);
    check(toastShown && (await toast.locator('.monaco-button', { hasText: 'Apply all' }).count()) === 1,
      'the preview\'s notification offers "Apply all" (and "Close preview")', toastShown ? await toast.innerText() : '(no notification)');
    const editorPart = page.locator('.part.editor');
    const previewed = () => editorPart.innerText().catch(() => '');
    await poll(async () => { const t = await previewed(); return /README\.md/.test(t) && /app\.py/.test(t) && /goodbye/.test(t); }, 15000);
    const shownPreview = await previewed();
    check(/\(4 files\)/.test(await previewTab.first().innerText()) && /README\.md/.test(shownPreview) && /app\.py/.test(shownPreview) && /goodbye/.test(shownPreview),
      '"fsrb: Preview all blocks": a multi-file diff editor of the 4 files (README.md and src/app.py on screen)', `${await previewTab.first().innerText()}: ${shownPreview.slice(0, 400)}`);
    const applyButton = page.locator('.editor-actions .action-label[aria-label*="Apply all blocks of the preview"]').first();
    await applyButton.waitFor({ timeout: 10000 });
    await page.mouse.move(640, 12);
    await page.waitForTimeout(800);
    await shot(page, 'vscode-preview.png');
    check(sameTree(BEFORE).length === 0, 'the preview wrote nothing', sameTree(BEFORE).join('; '));
    await applyButton.click();
    log('     clicked "Apply all blocks of the preview" in the preview\'s title bar');
    await poll(async () => (await previewTab.count()) === 0, 10000);
    check((await previewTab.count()) === 0, 'the preview closed');
    // The window's title names the editor in front ("● " while it holds
    // the unsaved edit: files.autoSave is off).
    const inFront = /^(● )?README\.md\b/;
    await poll(async () => inFront.test(await page.title()), 10000);
    const tabs = (await page.locator('.tab').allInnerTexts()).map((t) => t.replace(/\s+/g, ''));
    check(inFront.test(await page.title()) && ['app.py', 'usage.md'].every((f) => tabs.some((t) => t.includes(f))),
      'fsrb.showChangedFiles: README.md, src/app.py and docs/guide/usage.md opened (window/showDocument), README.md in front', `${await page.title()}: ${tabs.join(' | ')}`);
    await runCommand(page, 'File: Save All Files');
    diffs = await poll(async () => { const d = sameTree(); return d.length === 0 ? d : null; }, 15000) ?? sameTree();
    check(diffs.length === 0, 'Apply all from the preview + Save All: every file has the expected bytes', diffs.join('; '));

    await runCommand(page, 'View: Close All Editors');
    await page.waitForTimeout(500);

    // No patch is visible any more: the user's merge-conflict settings are back.
    const restored = await poll(() => !/merge-conflict\./.test(readFileSync(userSettings, 'utf8')), 10000);
    check(restored, 'merge-conflict settings restored once no patch is visible', readFileSync(userSettings, 'utf8'));

    // "fsrb: Apply block" from the palette applies the block under the cursor.
    writeFileSync(join(WS, 'second.fsrb'), 'notes/a.txt\n<<<<<<< SEARCH\n=======\nfirst\n>>>>>>> REPLACE\n\nnotes/b.txt\n<<<<<<< SEARCH\n=======\nsecond\n>>>>>>> REPLACE\n');
    await openFile(page, 'second.fsrb');
    await poll(async () => /2\/2 blocks apply/.test(await statusItem.innerText().catch(() => '')), 15000);
    await goToLine(page, 9);
    await dismissToasts(page);
    await runCommand(page, 'fsrb: Apply block');
    // VS Code makes a created file on disk at once, its text unsaved: the
    // message names it, for whoever discards the edit.
    await poll(async () => (await toastTexts(page)).some((t) => /created notes\/b\.txt/.test(t.text)), 10000);
    const applyToasts = await toastTexts(page);
    check(applyToasts.some((t) => /fsrb: applied 1 block to 1 file; created notes\/b\.txt/.test(t.text)),
      '"fsrb: Apply block": the message names the file it created', applyToasts.map((t) => t.text).join(' | '));
    const b = join(WS, 'notes', 'b.txt');
    const ok = () => existsSync(b) && readFileSync(b, 'utf8') === 'second\n' && !existsSync(join(WS, 'notes', 'a.txt'));
    // The edit creates notes/b.txt on disk at once and fills it in an
    // unsaved buffer a moment later: Save All writes it (files.autoSave is
    // off), asked again while the file is still empty on disk.
    await poll(() => existsSync(b), 10000);
    for (let i = 0; i < 4 && !ok(); i++) {
      await page.waitForTimeout(500);
      await runCommand(page, 'File: Save All Files');
      await poll(ok, 3000);
    }
    check(ok(), '"fsrb: Apply block" applied block #2 under the cursor only (notes/b.txt created)', existsSync(b) ? JSON.stringify(readFileSync(b, 'utf8')) : 'notes/b.txt missing');

    // A block that matches nowhere (a typo in SEARCH): hover shows the diff
    // from SEARCH to its closest place, numbered as the file's lines, and
    // Ctrl+. offers "Use the closest place as SEARCH", which makes the
    // block apply; nothing is applied for the user.
    writeFileSync(join(WS, 'typo.fsrb'), 'src/app.py\n<<<<<<< SEARCH\ndef farewell(name):\n    mesage = "goodbye " + name\n    return mesage\n=======\ndef farewell(name):\n    return "goodbye " + name\n>>>>>>> REPLACE\n');
    await openFile(page, 'typo.fsrb');
    look = await seeLenses(lensText, (t) => /#1 not found \(closest: line 9, 97% similar\)/.test(t), 15000);
    check(/#1 not found \(closest: line 9, 97% similar\)/.test(look), 'typo.fsrb: lens "#1 not found (closest: line 9, 97% similar)"', look);
    await goToLine(page, 3);
    await runCommand(page, 'Show or Focus Hover');
    // (The diagnostic's part comes first in the hover; ours follows once
    // the server answered.)
    const hover = page.locator('.monaco-hover:not(.hidden)');
    const hoverText = async () => (await hover.allInnerTexts().catch(() => [])).join('\n').replace(/\u00a0/g, ' ');
    const hoverShown = await poll(async () => /Closest place/.test(await hoverText()), 10000);
    const text = await hoverText();
    check(/Closest place: src\/app\.py lines 9-11, 97% similar/.test(text) && /\+\+\+ src\/app\.py \(lines 9-11\)/.test(text)
      && /@@ -1,3 \+9,3 @@/.test(text) && /-\s+mesage = "goodbye " \+ name/.test(text) && /\+\s+message = "goodbye " \+ name/.test(text),
      'hover on the block not found: the diff from SEARCH to lines 9-11 of src/app.py', text.slice(0, 800));
    if (hoverShown) await shot(page, 'vscode-hover-closest.png');
    await page.keyboard.press('Escape');
    let closestItems = [];
    for (let tries = 1; tries <= 3; tries++) {
      await page.keyboard.press('Control+.');
      if (await menu.waitFor({ timeout: 5000 }).then(() => true, () => false)) {
        closestItems = await menu.locator('.monaco-list-row').allInnerTexts();
        if (closestItems.some((t) => /Use the closest place as SEARCH/.test(t))) break;
      }
      await page.keyboard.press('Escape');
      await page.waitForTimeout(1000);
    }
    log(`     code actions on the block not found: ${closestItems.join(' | ') || '(none)'}`);
    const useClosest = menu.locator('.monaco-list-row', { hasText: 'Use the closest place as SEARCH (lines 9-11, 97% similar)' }).first();
    if (check((await useClosest.count()) === 1, 'quick fix "Use the closest place as SEARCH (lines 9-11, 97% similar)" offered', closestItems.join(' | '))) {
      await shot(page, 'vscode-quickfix-closest.png');
      await useClosest.click();
      look = await seeLenses(lensText, (t) => /#1 applies at src\/app\.py:9/.test(t), 10000);
      check(/#1 applies at src\/app\.py:9/.test(look), 'after the fix the block applies: "#1 applies at src/app.py:9"', look);
      check(readFileSync(join(WS, 'src', 'app.py')).equals(readFileSync(join(EXPECTED, 'src', 'app.py'))), 'the fix changed the patch only: src/app.py untouched');
    } else {
      await page.keyboard.press('Escape');
    }

    await skipReview(page);
    await clipboardStep(page, context);
    await copilotAnswerStep(page, context);
    await blockUnderCursorStep(page);
    await noEditStep(page);
    await mcpStep();
  } catch (err) {
    await page.screenshot({ path: process.env.FSRB_FAILSHOT || 'failure.png' }).catch(() => {});
    throw err;
  } finally {
    await context.close();
  }
}

// Per-block review: the "Skip block" lens of block #2 takes it out of
// "Apply all blocks", which then writes blocks #1 and #3 only, as one edit.
async function skipReview(page) {
  mkdirSync(join(WS, 'review'), { recursive: true });
  writeFileSync(join(WS, 'review', 'x.txt'), 'one\ntwo\nthree\n');
  writeFileSync(join(WS, 'review.fsrb'), 'review/x.txt\n<<<<<<< SEARCH\none\n=======\nONE\n>>>>>>> REPLACE\n\n'
    + 'review/x.txt\n<<<<<<< SEARCH\ntwo\n=======\nTWO\n>>>>>>> REPLACE\n\n'
    + 'review/z.txt\n<<<<<<< SEARCH\n=======\ncreated ✓\n>>>>>>> REPLACE\n');
  await openFile(page, 'review.fsrb');
  const editor = page.locator('.editor-instance .monaco-editor').first();
  const lenses = editor.locator('.codelens-decoration');
  const lensText = () => lensRows(lenses);
  let look = await seeLenses(lensText, (t) => /#2 applies at review\/x\.txt:2/.test(t) && /Skip block/.test(t), 15000);
  check(/#2 applies at review\/x\.txt:2 \| Apply \| Skip block/.test(look),
    'review.fsrb: block #2 has the lenses "#2 applies at review/x.txt:2 | Apply | Skip block"', look);
  const skip = lenses.filter({ hasText: '#2 applies at review/x.txt' }).locator('a', { hasText: 'Skip block' });
  await skip.first().click();
  log('     clicked the "Skip block" lens of block #2');
  const statusItem = page.locator('.statusbar-item', { hasText: /^fsrb: / });
  // (Hidden while a file that is no patch is active: no wait then.)
  const status = () => statusItem.first().innerText({ timeout: 2000 }).catch(() => '');
  await poll(async () => /fsrb: ready: 2 of 3 blocks, #2 skipped/.test(await status()), 15000);
  check(/fsrb: ready: 2 of 3 blocks, #2 skipped/.test(await status()), 'status bar: "fsrb: ready: 2 of 3 blocks, #2 skipped"', await status());
  look = await seeLenses(lensText, (t) => /#2 skipped/.test(t) && /Include block/.test(t), 10000);
  check(/#2 skipped \| Include block/.test(look), 'block #2\'s lenses: "#2 skipped | Include block"', look);
  await shot(page, 'vscode-skip-block.png');
  const applyAll = lenses.locator('a', { hasText: 'Apply all blocks' });
  await applyAll.first().click();
  log('     clicked the "Apply all blocks" lens');
  const x = join(WS, 'review', 'x.txt');
  const z = join(WS, 'review', 'z.txt');
  const ok = () => readFileSync(x, 'utf8') === 'ONE\ntwo\nthree\n' && existsSync(z) && readFileSync(z, 'utf8') === 'created ✓\n';
  await poll(() => existsSync(z), 10000);
  // (The palette may still be drawing its rows on a busy machine: a
  // command not found there is asked again.)
  for (let i = 0; i < 4 && !ok(); i++) {
    await page.waitForTimeout(500);
    await runCommand(page, 'File: Save All Files').catch(() => page.keyboard.press('Escape'));
    await poll(ok, 3000);
  }
  check(readFileSync(x, 'utf8') === 'ONE\ntwo\nthree\n', 'Apply all with #2 skipped: review/x.txt holds block #1 only, byte for byte',
    JSON.stringify(readFileSync(x, 'utf8')));
  check(existsSync(z) && readFileSync(z, 'utf8') === 'created ✓\n', 'Apply all with #2 skipped: review/z.txt created, byte for byte',
    existsSync(z) ? JSON.stringify(readFileSync(z, 'utf8')) : 'missing');
  // fsrb.showChangedFiles (on since the preview) opened review/x.txt in
  // front: back to the patch, whose state the status bar shows.
  await page.locator('.tab', { hasText: 'review.fsrb' }).first().click();
  await page.waitForSelector('.tab.active:has-text("review.fsrb")');
  await poll(async () => /fsrb: applied: 2 of 3 blocks, #2 skipped/.test(await status()), 15000);
  check(/fsrb: applied: 2 of 3 blocks, #2 skipped/.test(await status()), 'status bar after Apply all: "fsrb: applied: 2 of 3 blocks, #2 skipped"', await status());
  look = await seeLenses(lensText, (t) => /Revert all blocks/.test(t) && /#2 skipped/.test(t), 10000);
  check(/Revert all blocks/.test(look) && /#2 skipped/.test(look) && !/Apply all blocks/.test(look),
    'lenses after Apply all: "Revert all blocks", "#2 skipped", no "Apply all blocks"', look);
}

// "fsrb: Apply from clipboard": a chat answer copied in the browser opens
// as an untitled patch beside the editor, with its diagnostics; its preview
// applies it; the patch then closes by itself, unsaved, and "Save All" asks
// nothing (it would ask where to save an untitled document).
async function clipboardStep(page, context) {
  await runCommand(page, 'File: Save All Files');
  await runCommand(page, 'View: Close All Editors');
  const app = join(WS, 'src', 'app.py');
  const before = readFileSync(app, 'utf8');
  const answer = [
    'Sure! Two small edits to `src/app.py`:',
    '',
    'src/app.py',
    '```python',
    '<<<<<<< SEARCH',
    '    message = "hello " + name',
    '=======',
    '    message = "hi " + name',
    '>>>>>>> REPLACE',
    '```',
    '',
    'and the farewell:',
    '',
    '```python',
    '<<<<<<< SEARCH',
    '    message = "goodbye " + name',
    '=======',
    '    message = "bye " + name',
    '>>>>>>> REPLACE',
    '```',
    '',
    'notes/clip.txt',
    '```',
    '<<<<<<< SEARCH',
    '=======',
    'from the clipboard',
    '>>>>>>> REPLACE',
    '```',
    '',
  ].join('\n');
  // The user's path: text copied in the browser, which the workbench reads
  // for the extension (vscode.env.clipboard).
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new globalThis.URL(URL).origin });
  await page.evaluate((t) => navigator.clipboard.writeText(t), answer);
  check(await page.evaluate(() => navigator.clipboard.readText()) === answer, 'the chat answer is on the browser\'s clipboard');
  await openFile(page, 'src/app.py');
  await runCommand(page, 'fsrb: Apply from clipboard');
  // An untitled editor is named after its first line.
  const untitled = page.locator('.tab', { hasText: 'Sure! Two small edits' });
  await untitled.first().waitFor({ timeout: 15000 });
  const groups = await page.locator('.editor-group-container').count();
  const langMode = page.locator('.statusbar-item#status\\.editor\\.mode');
  await poll(async () => /fsrb/.test(await langMode.innerText().catch(() => '')), 10000);
  check(groups >= 2 && /fsrb/.test(await langMode.innerText().catch(() => '')), '"fsrb: Apply from clipboard": an untitled fsrb patch opens beside the editor',
    `${groups} editor groups; language ${await langMode.innerText().catch(() => '?')}`);
  const fsrbItem = page.locator('.statusbar-item', { hasText: /^fsrb: \d+\/\d+ block/ });
  await poll(async () => /3\/3 blocks apply/.test(await fsrbItem.innerText().catch(() => '')), 20000);
  check(/fsrb: 3\/3 blocks apply/.test(await fsrbItem.innerText().catch(() => '')), 'the clipboard patch: "fsrb: 3/3 blocks apply" (paths resolved against the workspace folder)',
    await fsrbItem.innerText().catch(() => '(no status item)'));
  await page.keyboard.press('Control+Shift+M');
  const markers = page.locator('.markers-panel');
  await markers.waitFor();
  await poll(async () => /block #2 has no file path/.test(await markers.innerText()), 15000);
  check(/block #2 has no file path; using src\/app\.py like block #1/.test(await markers.innerText()),
    'Problems: the clipboard patch\'s diagnostic (block #2 takes src/app.py from block #1)', await markers.innerText());
  await runCommand(page, 'View: Hide Panel').catch(() => page.keyboard.press('Escape'));

  await runCommand(page, 'fsrb: Preview all blocks');
  const previewTab = page.locator('.tab', { hasText: /fsrb preview: Untitled-\d/ });
  await previewTab.first().waitFor({ timeout: 15000 });
  const editorPart = page.locator('.part.editor');
  await poll(async () => /bye/.test(await editorPart.innerText().catch(() => '')) && /clip\.txt/.test(await editorPart.innerText().catch(() => '')), 15000);
  check(/\(2 files\)/.test(await previewTab.first().innerText()), 'the clipboard patch\'s preview: src/app.py and notes/clip.txt', await previewTab.first().innerText());
  const applyButton = page.locator('.editor-actions .action-label[aria-label*="Apply all blocks of the preview"]').first();
  await applyButton.waitFor({ timeout: 10000 });
  await page.mouse.move(640, 12);
  await page.waitForTimeout(800);
  // (The palette lists these only while the bars are shown.)
  if (await page.locator('.part.sidebar').isVisible()) await runCommand(page, 'View: Close Primary Side Bar');
  if (await page.locator('.part.auxiliarybar').isVisible()) await runCommand(page, 'View: Hide Secondary Side Bar');
  await page.mouse.move(640, 12);
  await page.waitForTimeout(500);
  await shot(page, 'vscode-clipboard-preview.png');
  check(readFileSync(app, 'utf8') === before && !existsSync(join(WS, 'notes', 'clip.txt')), 'the clipboard patch\'s preview wrote nothing');
  await applyButton.click();
  log('     clicked "Apply all blocks of the preview" of the clipboard patch');
  await poll(async () => (await untitled.count()) === 0, 15000);
  check((await untitled.count()) === 0, 'the applied clipboard patch closed by itself, unsaved', (await page.locator('.tab').allInnerTexts()).join(' | '));
  // The changed files open (fsrb.showChangedFiles is on by now) and take
  // the focus, which closes a palette opened meanwhile: let them.
  await page.waitForTimeout(2000);
  await runCommand(page, 'File: Save All Files').catch(async (err) => {
    log(`     (${err.message.split('\n')[0]}; once more)`);
    await page.keyboard.press('Escape');
    await runCommand(page, 'File: Save All Files');
  });
  await page.waitForTimeout(1000);
  const asked = await page.locator('.monaco-dialog-box, .quick-input-widget:visible').count();
  check(asked === 0, '"Save All" after applying the clipboard patch asks nothing (no dialog, no file picker)',
    asked ? await page.locator('.monaco-dialog-box, .quick-input-widget:visible').first().innerText() : '');
  if (asked) await page.keyboard.press('Escape');
  const wantApp = before.replace('"hello "', '"hi "').replace('"goodbye "', '"bye "');
  const clip = join(WS, 'notes', 'clip.txt');
  const done = () => readFileSync(app, 'utf8') === wantApp && existsSync(clip) && readFileSync(clip, 'utf8') === 'from the clipboard\n';
  await poll(done, 15000);
  check(done(), 'disk after the clipboard patch: src/app.py and notes/clip.txt byte for byte',
    `${diffLines(wantApp, readFileSync(app, 'utf8'))} clip.txt: ${existsSync(clip) ? JSON.stringify(readFileSync(clip, 'utf8')) : 'missing'}`);
  check(!readdirSync(WS).some((n) => /^Untitled/.test(n)), 'the clipboard patch was never written to disk', readdirSync(WS).join(' '));
}

// A Copilot Chat answer as it writes them: four backticks, a first line
// "// filepath: src/x.ts", "// ...existing code..." for what stays. From
// the clipboard it opens as an untitled patch, "fsrb: 1/1 block applies"
// (the block resolved against src/x.ts, no error), its preview shows the
// change, and the preview's "Apply all" writes it: src/x.ts byte for byte,
// the code around the rewritten function kept.
async function copilotAnswerStep(page, context) {
  await runCommand(page, 'File: Save All Files');
  await runCommand(page, 'View: Close All Editors');
  const x = join(WS, 'src', 'x.ts');
  const before = [
    "import { log } from './log';",
    '',
    'export class Counter {',
    '  private n = 0;',
    '',
    '  increment(): number {',
    "    log('increment');",
    '    return ++this.n;',
    '  }',
    '',
    '  get value(): number {',
    '    return this.n;',
    '  }',
    '}',
    '',
    'export function make(): Counter {',
    '  return new Counter();',
    '}',
    '',
    "export const version = '1.0';",
    '',
  ].join('\n');
  const want = before.replace('  return new Counter();\n', "  const c = new Counter();\n  log('make');\n  return c;\n");
  writeFileSync(x, before);
  // (What it imports, so that TypeScript shows no error beside it.)
  writeFileSync(join(WS, 'src', 'log.ts'), 'export function log(msg: string): void {\n  console.log(msg);\n}\n');
  const answer = [
    'Log each counter `make` creates:',
    '',
    '````typescript',
    '// filepath: src/x.ts',
    '// ...existing code...',
    '',
    'export function make(): Counter {',
    '  const c = new Counter();',
    "  log('make');",
    '  return c;',
    '}',
    '',
    '// ...existing code...',
    '````',
    '',
    '`Counter` itself stays as it is.',
    '',
  ].join('\n');
  await page.evaluate((t) => navigator.clipboard.writeText(t), answer);
  await openFile(page, 'src/x.ts');
  await runCommand(page, 'fsrb: Apply from clipboard');
  const untitled = page.locator('.tab', { hasText: 'Log each counter' });
  await untitled.first().waitFor({ timeout: 15000 });
  const fsrbItem = page.locator('.statusbar-item', { hasText: /^fsrb: / });
  await poll(async () => /1\/1 block applies/.test(await fsrbItem.first().innerText().catch(() => '')), 20000);
  check(/fsrb: 1\/1 block applies/.test(await fsrbItem.first().innerText().catch(() => '')),
    'the Copilot answer from the clipboard: "fsrb: 1/1 block applies" (its lazy block resolved against src/x.ts)',
    await fsrbItem.first().innerText().catch(() => '(no status item)'));
  // Its lens names the shape; the hints at its markers, the lines they keep.
  const lenses = page.locator('.monaco-editor .codelens-decoration');
  const lensText = () => lensRows(lenses);
  const look = await seeLenses(lensText, (t) => /#1 applies at src\/x\.ts:\d+ \(lazy\)/.test(t), 15000);
  check(/#1 applies at src\/x\.ts:\d+ \(lazy\)/.test(look) && !/fuzzy/.test(look),
    'the Copilot answer\'s lens: "#1 applies at src/x.ts:N (lazy)"', look);
  // (The editor draws spaces, and a hint's, as no-break spaces.)
  const answerText = () => page.locator('.editor-group-container.active .monaco-editor .view-lines').first().innerText()
    .then((t) => t.replace(/\u00a0/g, ' '), () => '');
  await poll(async () => /existing code\.\.\.[^\n]{0,3}keeps\s1-14/.test(await answerText()), 10000);
  log(`     the answer as shown: ${(await answerText()).replace(/\s+/g, ' ').slice(0, 300)}`);
  check(/existing code\.\.\.[^\n]{0,3}keeps\s1-14/.test(await answerText()), 'the Copilot answer\'s first marker: the hint "keeps 1-14"',
    (await answerText()).slice(0, 400));
  await page.mouse.move(640, 12);
  await page.waitForTimeout(500);
  await shot(page, 'vscode-copilot-answer.png');
  await runCommand(page, 'fsrb: Preview all blocks');
  const previewTab = page.locator('.tab', { hasText: /fsrb preview: Untitled-\d/ });
  await previewTab.first().waitFor({ timeout: 15000 });
  const editorPart = page.locator('.part.editor');
  await poll(async () => /log\('make'\)/.test(await editorPart.innerText().catch(() => '')), 15000);
  check(/log\('make'\)/.test(await editorPart.innerText().catch(() => '')) && readFileSync(x, 'utf8') === before,
    'the Copilot answer\'s preview: the rewritten make() in src/x.ts, nothing written', await previewTab.first().innerText());
  const applyButton = page.locator('.editor-actions .action-label[aria-label*="Apply all blocks of the preview"]').first();
  await applyButton.waitFor({ timeout: 10000 });
  if (await page.locator('.part.sidebar').isVisible()) await runCommand(page, 'View: Close Primary Side Bar');
  if (await page.locator('.part.auxiliarybar').isVisible()) await runCommand(page, 'View: Hide Secondary Side Bar');
  await page.mouse.move(640, 12);
  await page.waitForTimeout(800);
  await shot(page, 'vscode-copilot-preview.png');
  await applyButton.click();
  log('     clicked "Apply all blocks of the preview" of the Copilot answer');
  await poll(async () => (await untitled.count()) === 0, 15000);
  check((await untitled.count()) === 0, 'the applied Copilot answer closed by itself, unsaved', (await page.locator('.tab').allInnerTexts()).join(' | '));
  await page.waitForTimeout(2000);
  await runCommand(page, 'File: Save All Files').catch(async (err) => {
    log(`     (${err.message.split('\n')[0]}; once more)`);
    await page.keyboard.press('Escape');
    await runCommand(page, 'File: Save All Files');
  });
  await poll(() => readFileSync(x, 'utf8') === want, 15000);
  check(readFileSync(x, 'utf8') === want, 'disk after the Copilot answer: src/x.ts byte for byte (make() rewritten, the rest kept)',
    diffLines(want, readFileSync(x, 'utf8')));
  check(!readdirSync(WS).some((n) => /^Untitled/.test(n)), 'the Copilot answer was never written to disk', readdirSync(WS).join(' '));
}

// "fsrb: Skip block" and "fsrb: Include block" from the palette, with no
// block number, on a chat answer of two fenced blocks that name their
// files (a lazy block, a whole file): the block under the cursor is the
// one whose lines, as the server reads the answer, hold it. On block #2's
// file-name line, above the fence that holds its lens, that is block #2
// (the last lens at or above the line was block #1's); in the prose
// between the blocks it is none: a quick pick asks which block, and
// Escape runs nothing.
async function blockUnderCursorStep(page) {
  await runCommand(page, 'File: Save All Files');
  await runCommand(page, 'View: Close All Editors');
  mkdirSync(join(WS, 'chat'), { recursive: true });
  const a = join(WS, 'chat', 'a.py');
  const b = join(WS, 'chat', 'b.py');
  writeFileSync(a, 'def one():\n    return 1\n\n\ndef two():\n    return 2\n');
  writeFileSync(b, 'x = 1\ny = 2\n');
  const files = () => `${readFileSync(a, 'utf8')}|${readFileSync(b, 'utf8')}`;
  const before = files();
  const answer = [
    'Here are the two changes.', //  1
    '', //                           2
    '`chat/a.py`', //                3  block #1's file name
    '```python', //                  4  its lens
    '# ...existing code...',
    'def two():',
    '    return 22',
    '```', //                        8
    '',
    'Then update the other file:', // 10  prose between the blocks
    '',
    'chat/b.py', //                 12  block #2's file name
    '```python', //                 13  its lens
    'x = 1',
    'y = 3',
    '```', //                       16  its closing fence
    '',
    "That's all.",
    '',
  ].join('\n');
  await page.evaluate((t) => navigator.clipboard.writeText(t), answer);
  await openFile(page, 'chat/a.py');
  await runCommand(page, 'fsrb: Apply from clipboard');
  await page.locator('.tab', { hasText: 'Here are the two changes' }).first().waitFor({ timeout: 15000 });
  const fsrbItem = page.locator('.statusbar-item', { hasText: /^fsrb: / });
  const status = () => fsrbItem.first().innerText({ timeout: 2000 }).catch(() => '');
  await poll(async () => /fsrb: 2\/2 blocks apply/.test(await status()), 20000);
  check(/fsrb: 2\/2 blocks apply/.test(await status()), 'the answer of two fenced blocks: "fsrb: 2/2 blocks apply"', await status());
  const lenses = page.locator('.editor-group-container.active .monaco-editor .codelens-decoration');
  const lensText = () => lensRows(lenses);
  let look = await seeLenses(lensText, (t) => /#1 applies at chat\/a\.py/.test(t) && /#2 applies at chat\/b\.py/.test(t), 15000);
  log(`     its lenses: ${look}`);

  // In the prose between the blocks: a quick pick of the blocks; Escape.
  await goToLine(page, 10);
  await dismissToasts(page);
  await runCommand(page, 'fsrb: Skip block');
  const input = page.locator('.quick-input-widget input');
  const placeholder = () => input.getAttribute('placeholder', { timeout: 2000 }).catch(() => '');
  await poll(async () => /cursor is on no block/.test(await placeholder()), 10000);
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await poll(async () => (await rows.count()) === 2, 5000);
  const picks = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  check(/fsrb: the cursor is on no block: skip which one\?/.test(await placeholder()) && picks.length === 2
    && /^#1 applies at chat\/a\.py/.test(picks[0]) && /^#2 applies at chat\/b\.py/.test(picks[1]),
  '"fsrb: Skip block" in the prose between the blocks: a quick pick asks which block (#1, #2), none guessed',
  `${await placeholder()}: ${picks.join(' | ')}`);
  await page.mouse.move(640, 12);
  await page.waitForTimeout(300);
  await shot(page, 'vscode-block-under-cursor.png');
  await page.keyboard.press('Escape');
  await input.waitFor({ state: 'hidden' });
  await page.waitForTimeout(1500); // a command run would show by now
  look = await lensText();
  check(/fsrb: 2\/2 blocks apply/.test(await status()) && !/skipped/.test(look) && files() === before,
    'Escape on the quick pick: nothing skipped, no file changed', `${await status()}; ${look}`);

  // On block #2's file-name line: block #2.
  await goToLine(page, 12);
  await runCommand(page, 'fsrb: Skip block');
  await poll(async () => /#2 skipped/.test(await status()), 10000);
  const asked = await page.locator('.quick-input-widget:visible').count();
  check(/fsrb: ready: 1 of 2 blocks, #2 skipped/.test(await status()) && asked === 0,
    '"fsrb: Skip block" on block #2\'s file-name line (above its fence and lens) skips block #2, asking nothing', `${await status()}; ${asked ? 'a quick pick' : 'no quick pick'}`);
  look = await seeLenses(lensText, (t) => /#2 skipped/.test(t), 10000);
  check(/#2 skipped \| Include block/.test(look) && /#1 applies at chat\/a\.py/.test(look), 'its lenses: "#1 applies at chat/a.py…", "#2 skipped | Include block"', look);

  // On block #2's closing fence: block #2 again.
  await goToLine(page, 16);
  await runCommand(page, 'fsrb: Include block');
  await poll(async () => /fsrb: 2\/2 blocks apply/.test(await status()), 10000);
  check(/fsrb: 2\/2 blocks apply/.test(await status()), '"fsrb: Include block" on block #2\'s closing fence puts block #2 back: "fsrb: 2/2 blocks apply"', await status());
  check(files() === before, 'skipping and including blocks changed no file', files());
  await runCommand(page, 'View: Revert and Close Editor').catch(() => page.keyboard.press('Escape'));
}

// A chat answer with no edit in it (an explanation, a code block that
// names no file) from the clipboard: the status bar says "fsrb: no edit",
// and "Apply all blocks" says the answer holds no edit, as information,
// writing nothing.
async function noEditStep(page) {
  await runCommand(page, 'View: Close All Editors');
  const before = tree(WS);
  const answer = 'make() builds a fresh Counter each time; to share one, keep it yourself:\n\n```typescript\nconst shared = make();\n```\n';
  await page.evaluate((t) => navigator.clipboard.writeText(t), answer);
  await runCommand(page, 'fsrb: Apply from clipboard');
  await page.locator('.tab', { hasText: 'make() builds a fresh' }).first().waitFor({ timeout: 15000 });
  const fsrbItem = page.locator('.statusbar-item', { hasText: /^fsrb: / });
  await poll(async () => /fsrb: no edit/.test(await fsrbItem.first().innerText().catch(() => '')), 15000);
  check(/fsrb: no edit/.test(await fsrbItem.first().innerText().catch(() => '')), 'an answer with no edit from the clipboard: status bar "fsrb: no edit"',
    await fsrbItem.first().innerText().catch(() => '(no status item)'));
  await dismissToasts(page);
  await runCommand(page, 'fsrb: Apply all blocks');
  await poll(async () => (await toastTexts(page)).some((t) => /holds no edit/.test(t.text)), 10000);
  const toasts = await toastTexts(page);
  log(`     notifications after "Apply all" on it: ${toasts.map((t) => t.text).join(' | ') || '(none)'}`);
  check(toasts.some((t) => /nothing to apply: the answer holds no edit/.test(t.text) && !t.error && !t.warning),
    'an answer with no edit: "Apply all" says "nothing to apply: the answer holds no edit", as information', toasts.map((t) => t.text).join(' | '));
  const now = tree(WS);
  check(now.size === before.size && [...before].every(([p, b]) => now.get(p)?.equals(b)), 'an answer with no edit: no file changed');
  await dismissToasts(page);
  await runCommand(page, 'View: Revert and Close Editor').catch(() => page.keyboard.press('Escape'));
}

// Agent mode with no set-up: the workbench asks the extension's MCP server
// definition provider for its servers as it starts (there is no
// .vscode/mcp.json); the extension logs each answer. The answer names the
// bundled fsrb-mcp, rooted at the workspace folder, and that server answers
// MCP over stdio with fsrb's six tools. (This code-server has no chat
// extension, so its MCP commands, "MCP: List Servers" among them, are
// hidden: the server is started here, with the definition's command,
// arguments and folder.)
async function mcpStep() {
  const logs = join(env('FSRB_UD'), 'logs');
  const found = [];
  const walk = (d) => { for (const n of readdirSync(d)) { const p = join(d, n); if (statSync(p).isDirectory()) walk(p); else if (n === 'fsrb.log') found.push(p); } };
  const definition = () => {
    found.length = 0;
    walk(logs);
    const m = /\[fsrb\] MCP server for agent mode \((\w+)\): (\{.*\})/.exec(found.map((f) => readFileSync(f, 'utf8')).join('\n'));
    return m ? { source: m[1], ...JSON.parse(m[2]) } : undefined;
  };
  await poll(definition, 10000);
  const def = definition();
  if (!check(def && def.source === 'bundled' && /\/server\/linux-x64\/fsrb-mcp$/.test(def.command) && def.args.join(' ') === `--root ${WS}` && def.cwd === WS,
    'VS Code asked the extension\'s MCP provider: the bundled fsrb-mcp, --root the workspace folder, run there', JSON.stringify(def))) return;
  const tools = await mcpTools(def);
  check(['apply', 'edit', 'multi_edit', 'read', 'undo', 'validate'].every((t) => tools.names.includes(t)) && tools.names.length === 6,
    'the server the definition names answers tools/list: validate, apply, edit, multi_edit, undo, read', tools.names.join(', ') || tools.error);
  check(/Run the app locally/.test(tools.read), 'its read tool reads README.md from the workspace folder', tools.read.slice(0, 300));
}

// mcpTools starts the server of a definition and speaks MCP to it over
// stdio: initialize, tools/list, and a read of README.md.
function mcpTools(def) {
  return new Promise((resolve) => {
    const child = spawn(def.command, def.args, { cwd: def.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = { names: [], read: '', error: '' };
    let buf = '';
    const send = (msg) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n');
    const timer = setTimeout(() => { out.error = 'no answer in 20 s'; child.kill(); }, 20000);
    child.on('error', (err) => { out.error = String(err); });
    child.on('close', () => { clearTimeout(timer); resolve(out); });
    child.stderr.on('data', (d) => { out.error += d; });
    child.stdout.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        const msg = JSON.parse(line);
        if (msg.id === 1) {
          send({ method: 'notifications/initialized' });
          send({ id: 2, method: 'tools/list' });
        } else if (msg.id === 2) {
          out.names = (msg.result?.tools ?? []).map((t) => t.name).sort();
          send({ id: 3, method: 'tools/call', params: { name: 'read', arguments: { path: 'README.md' } } });
        } else if (msg.id === 3) {
          out.read = (msg.result?.content ?? []).map((c) => c.text ?? '').join('\n');
          child.stdin.end();
        }
      }
    });
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fsrb-e2e', version: '1' } } });
  });
}

async function runCommand(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(`>${title}`);
  const rows = page.locator('.quick-input-list .monaco-list-row');
  await rows.filter({ hasText: title }).first().waitFor();
  // Enter would run the first row, which may be a fuzzy match ("Apply all
  // blocks" for "Apply block"): click the row with exactly this title.
  const texts = await rows.allInnerTexts();
  const i = texts.findIndex((t) => t.split('\n')[0].trim() === title);
  if (i < 0) throw new Error(`command "${title}" not in the palette: ${texts.join(' | ')}`);
  await rows.nth(i).click();
  log(`     ran "${title}" from the command palette`);
}

// openFile opens path through Quick Open, as a user does, and waits for
// its tab. Quick Open finds a file written behind the editor's back once
// the file watcher has reported it: it is asked again until it lists it.
async function openFile(page, path) {
  const name = path.split('/').pop();
  const quick = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: name }).first();
  for (let i = 0; ; i++) {
    await page.keyboard.press('Control+P');
    await quick.waitFor();
    await quick.fill(path);
    if (await row.waitFor({ timeout: 5000 }).then(() => true, () => false)) break;
    if (i === 3) throw Object.assign(new Error(`quick open does not list ${path}`), { name: 'TimeoutError' });
    await page.keyboard.press('Escape');
    await quick.waitFor({ state: 'hidden' });
  }
  await page.keyboard.press('Enter');
  await page.waitForSelector(`.tab.active:has-text("${name}")`);
}

async function openToSide(page, path, tab) {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(path);
  // Ctrl+Enter opens the selected row: wait until the list has caught up
  // with the filter (the first row may still be a recently opened file).
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: tab }).first().waitFor();
  await page.waitForTimeout(200);
  await page.keyboard.press('Control+Enter');
  await page.waitForSelector(`.tab.active:has-text("${tab}")`);
  await input.waitFor({ state: 'hidden' });
  await page.waitForTimeout(300);
}

// The notification toasts on screen, and whether each is an error.
async function toastTexts(page) {
  const items = page.locator('.notifications-toasts .notification-list-item');
  const out = [];
  for (let i = 0; i < (await items.count()); i++) {
    const it = items.nth(i);
    out.push({
      text: (await it.innerText()).replace(/\s+/g, ' ').trim(),
      error: (await it.locator('.codicon-error').count()) > 0,
      warning: (await it.locator('.codicon-warning').count()) > 0,
    });
  }
  return out;
}

async function dismissToasts(page) {
  await runCommand(page, 'Notifications: Clear All Notifications').catch(() => {});
}

async function goToLine(page, n) {
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'hidden' });
  await page.keyboard.press('Control+G');
  await input.waitFor();
  // Go to Line opens with ":" in the box: only then is it the box that has
  // the keyboard (a key typed too early lands in the editor).
  await poll(async () => (await input.inputValue()).startsWith(':'), 5000, 50);
  if (!(await input.inputValue()).startsWith(':')) throw Object.assign(new Error('Go to Line did not open'), { name: 'TimeoutError' });
  await input.fill(`:${n}`);
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden' });
  await page.waitForTimeout(150);
}

try {
  await main();
  if (failed.length > 0) {
    log(`${failed.length} check(s) failed: ${failed.join('; ')}`);
    process.exit(1);
  }
  log('all checks passed');
  process.exit(0);
} catch (err) {
  const timeout = err && (err.name === 'TimeoutError' || /Timeout \d+ms exceeded/.test(String(err.message)));
  log(`${timeout ? 'UI TIMEOUT' : 'ERROR'} ${err && err.stack ? err.stack : err}`);
  process.exit(timeout ? 3 : 2);
}
