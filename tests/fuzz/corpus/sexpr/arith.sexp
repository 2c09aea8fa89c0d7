; arithmetic
(+ (* x1 x2) (- 3/4 x3) 0.5)
