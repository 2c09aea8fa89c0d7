# rnncc depth --plot: circuit depth against n, target boolean.
# Edit and rerun in this directory: gnuplot depth_boolean.svg.gp
# (gnuplot -e "output='OTHER.svg'" ... writes elsewhere; keep the terminal below in step with the extension)
if (!exists("output")) output = 'depth_boolean.svg'
data = 'depth_boolean.svg.dat'
set terminal svg size 1040,1040 dynamic font 'sans,11'
set output output
set termoption noenhanced
lg(x) = log(x)/log(2)
ll(x) = x <= 2 ? 0 : lg(x)*lg(lg(x))
# the fitted laws depth = a*f(n) + b (least squares, chosen by AICc)
f0(x) = 14.619047619047619*lg(x) + 39.714285714285722  # diagonal: a*log2(n)+b
f1(x) = 15.321428571428571*lg(x) + 45.928571428571431  # s4: a*log2(n)+b
f2(x) = 3.0595238095238093*lg(x) + -1.3928571428571423  # pd: a*log2(n)+b
f3(x) = 62.011904761904759*lg(x) + 17.821428571428555  # dplr: a*log2(n)+b
f4(x) = 62.857142857142854*lg(x) + 17.642857142857167  # deltanet: a*log2(n)+b
f5(x) = 62.023809523809526*lg(x) + 18.64285714285711  # gdn: a*log2(n)+b
f6(x) = 62.083333333333336*lg(x) + 17.5  # rwkv7: a*log2(n)+b
f7(x) = 0.6588235294117647*lg(x)**2 + 2.6999999999999993  # relu-rnn: a*log2(n)^2+b
f8(x) = 0.51190476190476186*lg(x) + 14.571428571428571  # uhat: a*log2(n)+b
f9(x) = 21.69047619047619*lg(x) + -1.3571428571428612  # counter: a*log2(n)+b
set samples 400
set grid
set xlabel 'n (sequence length)'
set ylabel 'circuit depth'
set logscale x 2
set xrange [1.73913:294.4]
set key bmargin left vertical Left reverse maxcols 1 samplen 2 font ',8'
set multiplot layout 2,2 title 'Circuit depth against n, target boolean (log:1 fixed point; finite-state models exact)' font ',13'
set title 'every series (log-log axes); lines: the laws AICc chose'
set logscale y 2
plot data index 0 using 1:2 with points pt 1 ps 1.2 lc rgb '#1f77b4' title 'diagonal: 14.62 log2(n) + 39.71', \
     f0(x) with lines lw 1.5 lc rgb '#1f77b4' notitle, \
     data index 1 using 1:2 with points pt 2 ps 1.2 lc rgb '#d62728' title 's4: 15.32 log2(n) + 45.93', \
     f1(x) with lines lw 1.5 lc rgb '#d62728' notitle, \
     data index 2 using 1:2 with points pt 3 ps 1.2 lc rgb '#2ca02c' title 'pd: 3.06 log2(n) - 1.393', \
     f2(x) with lines lw 1.5 lc rgb '#2ca02c' notitle, \
     data index 3 using 1:2 with points pt 4 ps 1.2 lc rgb '#9467bd' title 'dplr: 62.01 log2(n) + 17.82', \
     f3(x) with lines lw 1.5 lc rgb '#9467bd' notitle, \
     data index 4 using 1:2 with points pt 5 ps 1.2 lc rgb '#ff7f0e' title 'deltanet: 62.86 log2(n) + 17.64', \
     f4(x) with lines lw 1.5 lc rgb '#ff7f0e' notitle, \
     data index 5 using 1:2 with points pt 6 ps 1.2 lc rgb '#8c564b' title 'gdn: 62.02 log2(n) + 18.64', \
     f5(x) with lines lw 1.5 lc rgb '#8c564b' notitle, \
     data index 6 using 1:2 with points pt 7 ps 1.2 lc rgb '#e377c2' title 'rwkv7: 62.08 log2(n) + 17.5', \
     f6(x) with lines lw 1.5 lc rgb '#e377c2' notitle, \
     data index 7 using 1:2 with points pt 8 ps 1.2 lc rgb '#17becf' title 'relu-rnn: 0.6588 log2(n)^2 + 2.7', \
     f7(x) with lines lw 1.5 lc rgb '#17becf' notitle, \
     data index 8 using 1:2 with points pt 9 ps 1.2 lc rgb '#7f7f7f' title 'uhat: 0.5119 log2(n) + 14.57', \
     f8(x) with lines lw 1.5 lc rgb '#7f7f7f' notitle, \
     data index 9 using 1:2 with points pt 10 ps 1.2 lc rgb '#bcbd22' title 'counter: 21.69 log2(n) - 1.357', \
     f9(x) with lines lw 1.5 lc rgb '#bcbd22' notitle
set title 'chosen law a*log2(n)+b'
unset logscale y
plot data index 0 using 1:2 with points pt 1 ps 1.2 lc rgb '#1f77b4' title 'diagonal: 14.62 log2(n) + 39.71', \
     f0(x) with lines lw 1.5 lc rgb '#1f77b4' notitle, \
     data index 1 using 1:2 with points pt 2 ps 1.2 lc rgb '#d62728' title 's4: 15.32 log2(n) + 45.93', \
     f1(x) with lines lw 1.5 lc rgb '#d62728' notitle, \
     data index 2 using 1:2 with points pt 3 ps 1.2 lc rgb '#2ca02c' title 'pd: 3.06 log2(n) - 1.393', \
     f2(x) with lines lw 1.5 lc rgb '#2ca02c' notitle, \
     data index 3 using 1:2 with points pt 4 ps 1.2 lc rgb '#9467bd' title 'dplr: 62.01 log2(n) + 17.82', \
     f3(x) with lines lw 1.5 lc rgb '#9467bd' notitle, \
     data index 4 using 1:2 with points pt 5 ps 1.2 lc rgb '#ff7f0e' title 'deltanet: 62.86 log2(n) + 17.64', \
     f4(x) with lines lw 1.5 lc rgb '#ff7f0e' notitle, \
     data index 5 using 1:2 with points pt 6 ps 1.2 lc rgb '#8c564b' title 'gdn: 62.02 log2(n) + 18.64', \
     f5(x) with lines lw 1.5 lc rgb '#8c564b' notitle, \
     data index 6 using 1:2 with points pt 7 ps 1.2 lc rgb '#e377c2' title 'rwkv7: 62.08 log2(n) + 17.5', \
     f6(x) with lines lw 1.5 lc rgb '#e377c2' notitle, \
     data index 8 using 1:2 with points pt 9 ps 1.2 lc rgb '#7f7f7f' title 'uhat: 0.5119 log2(n) + 14.57', \
     f8(x) with lines lw 1.5 lc rgb '#7f7f7f' notitle, \
     data index 9 using 1:2 with points pt 10 ps 1.2 lc rgb '#bcbd22' title 'counter: 21.69 log2(n) - 1.357', \
     f9(x) with lines lw 1.5 lc rgb '#bcbd22' notitle
set title 'chosen law a*log2(n)^2+b'
unset logscale y
plot data index 7 using 1:2 with points pt 8 ps 1.2 lc rgb '#17becf' title 'relu-rnn: 0.6588 log2(n)^2 + 2.7', \
     f7(x) with lines lw 1.5 lc rgb '#17becf' notitle
unset multiplot
