;;; apply.el --- eglot applies an fsrb patch, in batch  -*- lexical-binding: t; -*-
;; emacs --batch -l apply.el WORKSPACE
;; The user's init file (~/.emacs.d/init.el, which emacs.sh writes from
;; editors/README.md's eglot snippet) is loaded as Emacs loads it; then
;; WORKSPACE/change.fsrb is opened and the steps a user takes are run: the
;; ambiguous block's diagnostic, its quick fix for the place in `part',
;; "Apply all blocks", save; then again, where nothing must be written.
(load (expand-file-name "check.el" (file-name-directory load-file-name)) nil t)
(let* ((ws (file-name-as-directory (car command-line-args-left)))
       (app (expand-file-name "src/app.py" ws))
       (prompts nil))
  (setq command-line-args-left nil)
  ;; What Emacs does at start-up, which --batch skips: packages (Debian's
  ;; elpa-eglot), then the init file.
  (package-activate-all)
  (load (expand-file-name "~/.emacs.d/init.el") nil t)
  (setq check-tag (format "emacs %s eglot" emacs-version))
  (defun disk (file) (with-temp-buffer (insert-file-contents-literally file) (buffer-string)))
  (defun titles (actions) (mapcar (lambda (a) (plist-get a :title)) actions))
  (defun actions (beg end) (eglot-code-actions beg end nil nil))
  ;; What eglot's menu does with the chosen action: eglot-execute from
  ;; eglot 1.14 (Emacs 30), by hand before.
  (defun run-action (a)
    (if (fboundp 'eglot-execute)
        (eglot-execute (eglot-current-server) a)
      (let ((edit (plist-get a :edit)) (cmd (plist-get a :command)))
        (when edit (eglot--apply-workspace-edit edit))
        (when cmd
          (eglot-execute-command (eglot-current-server) (intern (plist-get cmd :command))
                                 (plist-get cmd :arguments))))))
  ;; An advised primitive is natively compiled into a trampoline where
  ;; Emacs has native compilation (Debian's 30); an unpacked Emacs has no
  ;; gcc to drive it, and the advice below needs none.
  (when (boundp 'native-comp-enable-subr-trampolines)
    (setq native-comp-enable-subr-trampolines nil))
  ;; eglot asks before it edits a file no buffer visits: the user says yes.
  (advice-add 'y-or-n-p :override (lambda (prompt &rest _) (push prompt prompts) t))
  (advice-add 'yes-or-no-p :override (lambda (prompt &rest _) (push prompt prompts) t))
  (setq default-directory ws)
  (find-file (expand-file-name "change.fsrb" ws))
  (check (eq major-mode 'fsrb-mode) "*.fsrb opens in fsrb-mode")
  ;; eglot-ensure (the init file's hook) starts the server after the
  ;; command that opened the file; batch Emacs runs no command loop.
  (run-hooks 'post-command-hook)
  (check (wait-for (lambda () (eglot-current-server)) 20) "the init file's eglot-ensure connected")
  (let* ((before (disk app))
         (ambiguous (lambda () (cl-find-if (lambda (d) (string-match-p "ambiguous\\|places\\|occurrences" (flymake-diagnostic-text d)))
                                           (flymake-diagnostics)))))
    (check (wait-for ambiguous 20) "the ambiguous block's diagnostic"
           (mapcar #'flymake-diagnostic-text (flymake-diagnostics)))
    (let* ((d (funcall ambiguous))
           (fixes (and d (actions (flymake-diagnostic-beg d) (flymake-diagnostic-end d))))
           (fix (cl-find-if (lambda (a) (string-match-p "occurrence in .*part" (plist-get a :title))) fixes)))
      (check fix "a quick fix per place, one for `part'" (titles fixes))
      (when fix (run-action fix)))
    ;; eglot sends the edit (didChange), and flymake asks for the new
    ;; diagnostics, from idle timers, which batch Emacs never runs: do as
    ;; those timers would.
    (eglot--signal-textDocument/didChange)
    (check (wait-for (lambda () (flymake-start) (null (funcall ambiguous))) 20) "no ambiguous block after the quick fix"
           (mapcar #'flymake-diagnostic-text (flymake-diagnostics)))
    (let* ((all (lambda () (cl-find-if (lambda (a) (string-prefix-p "Apply all blocks" (plist-get a :title)))
                                      (actions (point-min) (point-max)))))
           (apply-all nil))
      (wait-for (lambda () (setq apply-all (funcall all))) 20)
      (check apply-all "\"Apply all blocks\" is offered" (titles (actions (point-min) (point-max))))
      (when apply-all (run-action apply-all))
      (check (equal (disk app) before) "src/app.py unchanged on disk until saved")
      (let ((buf (find-buffer-visiting app)))
        (check (and buf (buffer-modified-p buf)) "src/app.py edited in its buffer")
        (save-some-buffers t))
      (let ((after (disk app)))
        (check (equal after (concat "def greet(name: str):\n    print(\"hello\")\n    return name\n\n\n"
                                    "def part(name):\n    print(\"goodbye\")\n    return name\n"))
               "src/app.py written once, each block at its place" after)
        ;; Again: the patch is applied, so nothing to apply and nothing written.
        (let ((again nil))
          (wait-for (lambda () (null (setq again (funcall all)))) 20)
          (check (null again) "\"Apply all blocks\" is not offered a second time" (and again (plist-get again :title)))
          (when again (run-action again) (save-some-buffers t)))
        (check (equal (disk app) after) "nothing written the second time")
        (check (not (buffer-modified-p (find-buffer-visiting app))) "no unsaved edit the second time"))))
  (check-exit))
