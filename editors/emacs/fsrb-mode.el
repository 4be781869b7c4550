;;; fsrb-mode.el --- Major mode for fsrb SEARCH/REPLACE patches  -*- lexical-binding: t; -*-

;; A small major mode for *.fsrb patches, and the glue for the fsrb-lsp
;; language server with eglot or lsp-mode. Copy the parts you use into
;; your init file, or put this file on `load-path' and (require 'fsrb-mode).

;;; Code:

(defgroup fsrb nil "fsrb SEARCH/REPLACE patches." :group 'languages)

(defcustom fsrb-lsp-command '("fsrb-lsp")
  "The fsrb language server command."
  :type '(repeat string))

(defface fsrb-search-marker-face '((t :inherit diff-removed :weight bold)) "SEARCH markers.")
(defface fsrb-replace-marker-face '((t :inherit diff-added :weight bold)) "REPLACE markers.")
(defface fsrb-separator-face '((t :inherit diff-changed :weight bold)) "The ======= separator.")

(defconst fsrb-font-lock-keywords
  `((,(rx bol (* blank) (or (seq (= 7 "<") (* "<") (* blank) (or "SEARCH" "NEW_FILE"))
                            (seq "---" (* "-") (* blank) "SEARCH"))
          (* blank) eol)
     . 'fsrb-search-marker-face)
    (,(rx bol (* blank) (>= 5 "=") (* blank) eol) . 'fsrb-separator-face)
    (,(rx bol (* blank) (or (seq (>= 5 ">") (* blank) (or "REPLACE" "NEW_FILE"))
                            (seq "+++" (* "+") (* blank) "REPLACE"))
          (* blank) eol)
     . 'fsrb-replace-marker-face)
    (,(rx bol (* blank) (? (+ "#") (* blank)) (? (or "File:" "Filename:") (* blank))
          (* (any "*`'\"")) (group (+ (not (any " \t\n*`'\""))) (any "./") (* (not (any " \t\n*`'\""))))
          (* (any "*`'\"")) (? ":") (* blank) eol)
     1 font-lock-function-name-face))
  "Highlighting of markers and path headers.")

;;;###autoload
(define-derived-mode fsrb-mode prog-mode "fsrb"
  "Major mode for fsrb SEARCH/REPLACE patches."
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "#+\\s-*")
  (setq-local font-lock-defaults '(fsrb-font-lock-keywords t)))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.fsrb\\'" . fsrb-mode))

;; eglot (built in from Emacs 29; `elpa-eglot' on Debian 12)
(with-eval-after-load 'eglot
  ;; A function, so that a later change of `fsrb-lsp-command' counts.
  (add-to-list 'eglot-server-programs `(fsrb-mode . ,(lambda (&rest _) fsrb-lsp-command))))

;; lsp-mode
(with-eval-after-load 'lsp-mode
  (add-to-list 'lsp-language-id-configuration '(fsrb-mode . "fsrb"))
  (lsp-register-client
   (make-lsp-client :new-connection (lsp-stdio-connection (lambda () fsrb-lsp-command))
                    :activation-fn (lsp-activate-on "fsrb")
                    :server-id 'fsrb-lsp)))

(provide 'fsrb-mode)
;;; fsrb-mode.el ends here
