# rnncc depth --plot: circuit depth against n, target threshold.
# Edit and rerun in this directory: gnuplot depth_threshold.svg.gp
# (gnuplot -e "output='OTHER.svg'" ... writes elsewhere; keep the terminal below in step with the extension)
if (!exists("output")) output = 'depth_threshold.svg'
data = 'depth_threshold.svg.dat'
set terminal svg size 1040,540 dynamic font 'sans,11'
set output output
set termoption noenhanced
lg(x) = log(x)/log(2)
ll(x) = x <= 2 ? 0 : lg(x)*lg(lg(x))
# the fitted laws depth = a*f(n) + b (least squares, chosen by AICc)
f0(x) = 0*0 + 4  # s4: b
f1(x) = 0*0 + 5  # uhat: b
f2(x) = 0*0 + 4  # counter: b
set samples 400
set grid
set xlabel 'n (sequence length)'
set ylabel 'circuit depth'
set logscale x 2
set xrange [1.73913:4710.4]
set key bmargin left vertical Left reverse maxcols 1 samplen 2 font ',8'
set multiplot layout 1,2 title 'Circuit depth against n, target threshold (log:1 fixed point)' font ',13'
set title 'every series (log-log axes); lines: the laws AICc chose'
set logscale y 2
plot data index 0 using 1:2 with points pt 1 ps 1.2 lc rgb '#1f77b4' title 's4, counter: 4', \
     f0(x) with lines lw 1.5 lc rgb '#1f77b4' notitle, \
     data index 1 using 1:2 with points pt 2 ps 1.2 lc rgb '#d62728' title 'uhat: 5', \
     f1(x) with lines lw 1.5 lc rgb '#d62728' notitle
set title 'chosen law b'
unset logscale y
plot data index 0 using 1:2 with points pt 1 ps 1.2 lc rgb '#1f77b4' title 's4, counter: 4', \
     f0(x) with lines lw 1.5 lc rgb '#1f77b4' notitle, \
     data index 1 using 1:2 with points pt 2 ps 1.2 lc rgb '#d62728' title 'uhat: 5', \
     f1(x) with lines lw 1.5 lc rgb '#d62728' notitle
unset multiplot
