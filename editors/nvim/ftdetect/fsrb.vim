" fsrb patch documents (SEARCH/REPLACE blocks)
autocmd BufRead,BufNewFile *.fsrb setfiletype fsrb
