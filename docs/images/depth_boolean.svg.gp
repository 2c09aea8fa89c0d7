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
f0(x) = 10.83049258060092*ll(x) + 65.839199216450282  # diagonal: a*log2(n)*log2(log2(n))+b
f1(x) = 11.07909914242285*ll(x) + 68.806415221273937  # s4: a*log2(n)*log2(log2(n))+b
f2(x) = 3.0595238095238093*lg(x) + -1.3928571428571423  # pd: a*log2(n)+b
f3(x) = 63.13095238095238*lg(x) + 21.785714285714278  # dplr: a*log2(n)+b
f4(x) = 63.666666666666664*lg(x) + 22.25  # deltanet: a*log2(n)+b
f5(x) = 62.833333333333336*lg(x) + 24  # gdn: a*log2(n)+b
f6(x) = 63.05952380952381*lg(x) + 22.107142857142833  # rwkv7: a*log2(n)+b
f7(x) = 0.6588235294117647*lg(x)**2 + 2.6999999999999993  # relu-rnn: a*log2(n)^2+b
f8(x) = 0.5357142857142857*lg(x) + 15.714285714285715  # uhat: a*log2(n)+b
f9(x) = 23.36904761904762*lg(x) + 7.4642857142857082  # counter: a*log2(n)+b
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
plot data index 0 using 1:2 with points pt 1 ps 1.2 lc rgb '#1f77b4' title 'diagonal: 10.83 log2(n) log2(log2(n)) + 65.84', \
     f0(x) with lines lw 1.5 lc rgb '#1f77b4' notitle, \
     data index 1 using 1:2 with points pt 2 ps 1.2 lc rgb '#d62728' title 's4: 11.08 log2(n) log2(log2(n)) + 68.81', \
     f1(x) with lines lw 1.5 lc rgb '#d62728' notitle, \
     data index 2 using 1:2 with points pt 3 ps 1.2 lc rgb '#2ca02c' title 'pd: 3.06 log2(n) - 1.393', \
     f2(x) with lines lw 1.5 lc rgb '#2ca02c' notitle, \
     data index 3 using 1:2 with points pt 4 ps 1.2 lc rgb '#9467bd' title 'dplr: 63.13 log2(n) + 21.79', \
     f3(x) with lines lw 1.5 lc rgb '#9467bd' notitle, \
     data index 4 using 1:2 with points pt 5 ps 1.2 lc rgb '#ff7f0e' title 'deltanet: 63.67 log2(n) + 22.25', \
     f4(x) with lines lw 1.5 lc rgb '#ff7f0e' notitle, \
     data index 5 using 1:2 with points pt 6 ps 1.2 lc rgb '#8c564b' title 'gdn: 62.83 log2(n) + 24', \
     f5(x) with lines lw 1.5 lc rgb '#8c564b' notitle, \
     data index 6 using 1:2 with points pt 7 ps 1.2 lc rgb '#e377c2' title 'rwkv7: 63.06 log2(n) + 22.11', \
     f6(x) with lines lw 1.5 lc rgb '#e377c2' notitle, \
     data index 7 using 1:2 with points pt 8 ps 1.2 lc rgb '#17becf' title 'relu-rnn: 0.6588 log2(n)^2 + 2.7', \
     f7(x) with lines lw 1.5 lc rgb '#17becf' notitle, \
     data index 8 using 1:2 with points pt 9 ps 1.2 lc rgb '#7f7f7f' title 'uhat: 0.5357 log2(n) + 15.71', \
     f8(x) with lines lw 1.5 lc rgb '#7f7f7f' notitle, \
     data index 9 using 1:2 with points pt 10 ps 1.2 lc rgb '#bcbd22' title 'counter: 23.37 log2(n) + 7.464', \
     f9(x) with lines lw 1.5 lc rgb '#bcbd22' notitle
set title 'chosen law a*log2(n)+b'
unset logscale y
plot data index 2 using 1:2 with points pt 3 ps 1.2 lc rgb '#2ca02c' title 'pd: 3.06 log2(n) - 1.393', \
     f2(x) with lines lw 1.5 lc rgb '#2ca02c' notitle, \
     data index 3 using 1:2 with points pt 4 ps 1.2 lc rgb '#9467bd' title 'dplr: 63.13 log2(n) + 21.79', \
     f3(x) with lines lw 1.5 lc rgb '#9467bd' notitle, \
     data index 4 using 1:2 with points pt 5 ps 1.2 lc rgb '#ff7f0e' title 'deltanet: 63.67 log2(n) + 22.25', \
     f4(x) with lines lw 1.5 lc rgb '#ff7f0e' notitle, \
     data index 5 using 1:2 with points pt 6 ps 1.2 lc rgb '#8c564b' title 'gdn: 62.83 log2(n) + 24', \
     f5(x) with lines lw 1.5 lc rgb '#8c564b' notitle, \
     data index 6 using 1:2 with points pt 7 ps 1.2 lc rgb '#e377c2' title 'rwkv7: 63.06 log2(n) + 22.11', \
     f6(x) with lines lw 1.5 lc rgb '#e377c2' notitle, \
     data index 8 using 1:2 with points pt 9 ps 1.2 lc rgb '#7f7f7f' title 'uhat: 0.5357 log2(n) + 15.71', \
     f8(x) with lines lw 1.5 lc rgb '#7f7f7f' notitle, \
     data index 9 using 1:2 with points pt 10 ps 1.2 lc rgb '#bcbd22' title 'counter: 23.37 log2(n) + 7.464', \
     f9(x) with lines lw 1.5 lc rgb '#bcbd22' notitle
set title 'chosen law a*log2(n)*log2(log2(n))+b'
unset logscale y
plot data index 0 using 1:2 with points pt 1 ps 1.2 lc rgb '#1f77b4' title 'diagonal: 10.83 log2(n) log2(log2(n)) + 65.84', \
     f0(x) with lines lw 1.5 lc rgb '#1f77b4' notitle, \
     data index 1 using 1:2 with points pt 2 ps 1.2 lc rgb '#d62728' title 's4: 11.08 log2(n) log2(log2(n)) + 68.81', \
     f1(x) with lines lw 1.5 lc rgb '#d62728' notitle
set title 'chosen law a*log2(n)^2+b'
unset logscale y
plot data index 7 using 1:2 with points pt 8 ps 1.2 lc rgb '#17becf' title 'relu-rnn: 0.6588 log2(n)^2 + 2.7', \
     f7(x) with lines lw 1.5 lc rgb '#17becf' notitle
unset multiplot
