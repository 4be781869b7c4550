;;; check.el --- what the batch e2e scripts share  -*- lexical-binding: t; -*-
;; Loaded by test.el and apply.el: a check that prints its line and counts
;; its failure, waiting for a condition while the server's messages come
;; in, and the exit code (0 passed, 1 a check failed).

(defvar check-tag "emacs"
  "What each check's line starts with, in brackets.")

(defvar check-failures 0
  "How many checks failed so far.")

(defun check (ok what &optional detail)
  "Print WHAT as passed if OK holds, else as failed with DETAIL, and count it."
  (princ (format "[%s] %s %s%s\n" check-tag (if ok "ok  " "FAIL") what
                 (if (and (not ok) detail) (format ": %S" detail) "")))
  (unless ok (setq check-failures (1+ check-failures))))

(defun wait-for (pred secs)
  "Wait up to SECS seconds for PRED to hold, reading process output; return PRED."
  (let ((end (+ (float-time) secs)))
    (while (and (not (funcall pred)) (< (float-time) end))
      (accept-process-output nil 0.05))
    (funcall pred)))

(defun check-exit ()
  "Quit Emacs: 0 if every check passed, else 1."
  (kill-emacs (if (> check-failures 0) 1 0)))
