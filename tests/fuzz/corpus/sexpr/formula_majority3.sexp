; Majority of three inputs: 1 iff at least two of x1, x2, x3 are 1. Boolean; the 3-ary or
; is read as (or (or A B) C), so the depth is 3.
(or (and x1 x2)
    (and x1 x3)
    (and x2 x3))
