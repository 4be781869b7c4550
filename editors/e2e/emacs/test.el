;;; test.el --- fsrb-mode + eglot or lsp-mode against fsrb-lsp, in batch -*- lexical-binding: t; -*-
;; emacs --batch -l test.el CLIENT(eglot|lsp-mode) SERVER WORKSPACE
(load (expand-file-name "check.el" (file-name-directory load-file-name)) nil t)
(require 'package)
(package-initialize)
(let* ((args command-line-args-left)
       (client (nth 0 args)) (server (nth 1 args)) (ws (nth 2 args)))
  (setq command-line-args-left nil)
  (add-to-list 'load-path (expand-file-name "../../emacs" (file-name-directory load-file-name)))
  (require 'fsrb-mode)
  (setq fsrb-lsp-command (list server))
  (setq check-tag (format "emacs %s" client))
  (setq default-directory (file-name-as-directory ws))
  (find-file (expand-file-name "change.fsrb" ws))
  (check (eq major-mode 'fsrb-mode) "*.fsrb opens in fsrb-mode")
  (font-lock-ensure)
  (goto-char (point-min)) (search-forward "<<<<<<< SEARCH")
  (check (eq (get-text-property (match-beginning 0) 'face) 'fsrb-search-marker-face) "SEARCH marker highlighted")
  (cond
   ((equal client "eglot")
    (require 'eglot)
    ;; eglot-ensure waits for the next command, which never comes in batch.
    (apply #'eglot (eglot--guess-contact))
    (wait-for (lambda () (eglot-current-server)) 10)
    (check (eglot-current-server) "eglot connected")
    (let ((ok (wait-for (lambda () (>= (length (flymake-diagnostics)) 2)) 10)))
      (check ok "two diagnostics through flymake"
             (mapcar #'flymake-diagnostic-text (flymake-diagnostics)))
      (dolist (d (flymake-diagnostics))
        (princ (format "     %s\n" (car (split-string (flymake-diagnostic-text d) "\n")))))))
   ((equal client "lsp-mode")
    (require 'lsp-mode)
    (setq lsp-auto-guess-root t lsp-enable-file-watchers nil lsp-diagnostics-provider :flymake
          lsp-session-file (expand-file-name "../lsp-session" ws) lsp-enable-snippet nil
          lsp-headerline-breadcrumb-enable nil lsp-modeline-code-actions-enable nil)
    (lsp)
    (wait-for (lambda () (and (bound-and-true-p lsp-mode) (lsp-workspaces))) 10)
    (check (lsp-workspaces) "lsp-mode connected")
    (let ((ok (wait-for (lambda () (>= (length (flymake-diagnostics)) 2)) 10)))
      (check ok "two diagnostics through flymake"
             (mapcar #'flymake-diagnostic-text (flymake-diagnostics)))
      (dolist (d (flymake-diagnostics))
        (princ (format "     %s\n" (car (split-string (flymake-diagnostic-text d) "\n"))))))))
  (check-exit))
