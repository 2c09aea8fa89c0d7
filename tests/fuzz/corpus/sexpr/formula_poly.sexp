; A small arithmetic formula over the rationals: x1*x2 + (x3 - 1/2) (depth 2).
(+ (* x1 x2)
   (- x3 1/2))
