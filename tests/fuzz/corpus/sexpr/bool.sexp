(and x1 (or x2 (not x3)))
