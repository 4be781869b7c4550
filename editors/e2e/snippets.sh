#!/usr/bin/env bash
# Syntax-checks the code snippets of editors/README.md: Lua (Neovim's
# loadstring), TOML and JSON (python3), Emacs Lisp (emacs --batch, when
# installed), shell (bash -n). Rust is listed as not checked.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
readme="${1:-$here/../README.md}"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
python3 - "$readme" "$tmp" <<'PY'
import re, sys, pathlib
text = pathlib.Path(sys.argv[1]).read_text()
out = pathlib.Path(sys.argv[2])
for i, m in enumerate(re.finditer(r"^```(\w+)\n(.*?)^```$", text, re.S | re.M)):
    (out / f"{i:02d}.{m.group(1)}").write_text(m.group(2))
PY
pass=0; fail=0; notchecked=0
for f in "$tmp"/*; do
  name="snippet $(basename "$f")"
  case "$f" in
    *.lua)
      if nvim --headless -u NONE -i NONE -n -c "lua local s = io.open('$f'):read('*a'); local ok = loadstring(s) or loadstring('return ' .. s); if not ok then io.stderr:write(select(2, loadstring(s)) .. '\n'); vim.cmd('cquit 1') end" -c 'qall!' 2>"$tmp/err"; then r=0; else r=1; fi ;;
    *.toml) python3 -c "import tomllib,sys; tomllib.load(open(sys.argv[1],'rb'))" "$f" 2>"$tmp/err" && r=0 || r=1 ;;
    *.json) python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$f" 2>"$tmp/err" && r=0 || r=1 ;;
    *.sh) bash -n "$f" 2>"$tmp/err" && r=0 || r=1 ;;
    *.elisp)
      if command -v emacs >/dev/null; then
        emacs --batch -Q --eval "(with-temp-buffer (insert-file-contents \"$f\") (goto-char (point-min)) (condition-case nil (while t (read (current-buffer))) (end-of-file nil)))" 2>"$tmp/err" && r=0 || r=1
      else r=2; echo "emacs not installed" >"$tmp/err"; fi ;;
    *) r=2; echo "no checker for this language" >"$tmp/err" ;;
  esac
  case $r in
    0) pass=$((pass+1)); echo "ok   $name" ;;
    1) fail=$((fail+1)); echo "FAIL $name: $(cat "$tmp/err")"; sed 's/^/     | /' "$f" ;;
    2) notchecked=$((notchecked+1)); echo "NOT CHECKED $name: $(cat "$tmp/err")" ;;
  esac
done
echo "snippets: $pass passed, $fail failed ($notchecked not checked)"
[ $fail -eq 0 ]
