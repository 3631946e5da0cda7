'use strict';
// Draws one echarts option as SVG with echarts' server-side renderer. Its last three arguments
// are the path of echarts.min.js, the width and the height in pixels. The option comes on stdin
// as JavaScript object text (go-echarts writes functions into it unquoted, so it is evaluated,
// not parsed as JSON).
const fs = require('fs');
const [file, w, h] = process.argv.slice(-3);
const echarts = require(file);
const option = Function('"use strict"; return (' + fs.readFileSync(0, 'utf8') + ');')();
option.animation = false;
const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: Number(w), height: Number(h) });
chart.setOption(option);
process.stdout.write(chart.renderToSVGString());
chart.dispose();
