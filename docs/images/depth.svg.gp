# rnncc depth --plot: circuit depth against n, target arith.
# Edit and rerun in this directory: gnuplot depth.svg.gp
# (gnuplot -e "output='OTHER.svg'" ... writes elsewhere; keep the terminal below in step with the extension)
if (!exists("output")) output = 'depth.svg'
data = 'depth.svg.dat'
set terminal svg size 1040,1040 dynamic font 'sans,11'
set output output
set termoption noenhanced
lg(x) = log(x)/log(2)
ll(x) = x <= 2 ? 0 : lg(x)*lg(lg(x))
# the fitted laws depth = a*f(n) + b (least squares, chosen by AICc)
f0(x) = 2*lg(x) + 6  # diagonal: a*log2(n)+b
f1(x) = 2*lg(x) + 6  # s4: a*log2(n)+b
f2(x) = 3*lg(x) + 7  # pd: a*log2(n)+b
f3(x) = 2*lg(x) + 6  # dplr: a*log2(n)+b
f4(x) = 2*lg(x) + 6  # deltanet: a*log2(n)+b
f5(x) = 2*lg(x) + 6  # gdn: a*log2(n)+b
f6(x) = 2*lg(x) + 6  # rwkv7: a*log2(n)+b
f7(x) = 4*x + 2  # relu-rnn: a*n+b
f8(x) = 0.038461538461538464*lg(x) + 10.666666666666666  # uhat: a*log2(n)+b
f9(x) = 3.9615384615384617*lg(x) + 14.333333333333334  # hybrid: a*log2(n)+b
f10(x) = 2*lg(x) + 2  # counter: a*log2(n)+b
set samples 400
set grid
set xlabel 'n (sequence length)'
set ylabel 'circuit depth'
set logscale x 2
set xrange [1.73913:4710.4]
set key bmargin left vertical Left reverse maxcols 1 samplen 2 font ',8'
set multiplot layout 2,2 title 'Circuit depth against n, target arith (exact rationals)' font ',13'
set title 'every series (log-log axes); lines: the laws AICc chose'
set logscale y 2
plot data index 0 using 1:2 with points pt 1 ps 1.2 lc rgb '#1f77b4' title 'diagonal, s4, dplr, deltanet, gdn, rwkv7: 2 log2(n) + 6', \
     f0(x) with lines lw 1.5 lc rgb '#1f77b4' notitle, \
     data index 2 using 1:2 with points pt 3 ps 1.2 lc rgb '#2ca02c' title 'pd: 3 log2(n) + 7', \
     f2(x) with lines lw 1.5 lc rgb '#2ca02c' notitle, \
     data index 7 using 1:2 with points pt 8 ps 1.2 lc rgb '#17becf' title 'relu-rnn: 4 n + 2', \
     f7(x) with lines lw 1.5 lc rgb '#17becf' notitle, \
     data index 8 using 1:2 with points pt 9 ps 1.2 lc rgb '#7f7f7f' title 'uhat: 0.03846 log2(n) + 10.67', \
     f8(x) with lines lw 1.5 lc rgb '#7f7f7f' notitle, \
     data index 9 using 1:2 with points pt 10 ps 1.2 lc rgb '#bcbd22' title 'hybrid: 3.962 log2(n) + 14.33', \
     f9(x) with lines lw 1.5 lc rgb '#bcbd22' notitle, \
     data index 10 using 1:2 with points pt 11 ps 1.2 lc rgb '#393b79' title 'counter: 2 log2(n) + 2', \
     f10(x) with lines lw 1.5 lc rgb '#393b79' notitle
set title 'chosen law a*log2(n)+b'
unset logscale y
plot data index 0 using 1:2 with points pt 1 ps 1.2 lc rgb '#1f77b4' title 'diagonal, s4, dplr, deltanet, gdn, rwkv7: 2 log2(n) + 6', \
     f0(x) with lines lw 1.5 lc rgb '#1f77b4' notitle, \
     data index 2 using 1:2 with points pt 3 ps 1.2 lc rgb '#2ca02c' title 'pd: 3 log2(n) + 7', \
     f2(x) with lines lw 1.5 lc rgb '#2ca02c' notitle, \
     data index 8 using 1:2 with points pt 9 ps 1.2 lc rgb '#7f7f7f' title 'uhat: 0.03846 log2(n) + 10.67', \
     f8(x) with lines lw 1.5 lc rgb '#7f7f7f' notitle, \
     data index 9 using 1:2 with points pt 10 ps 1.2 lc rgb '#bcbd22' title 'hybrid: 3.962 log2(n) + 14.33', \
     f9(x) with lines lw 1.5 lc rgb '#bcbd22' notitle, \
     data index 10 using 1:2 with points pt 11 ps 1.2 lc rgb '#393b79' title 'counter: 2 log2(n) + 2', \
     f10(x) with lines lw 1.5 lc rgb '#393b79' notitle
set title 'chosen law a*n+b'
set logscale y 2
plot data index 7 using 1:2 with points pt 8 ps 1.2 lc rgb '#17becf' title 'relu-rnn: 4 n + 2', \
     f7(x) with lines lw 1.5 lc rgb '#17becf' notitle
unset multiplot
