# Writes OUT, a C file defining mon_page_html[] (and its length) with the
# bytes of IN (tools/monitor/index.html): the page is part of ftmpirun.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" n)
math(EXPR bytes "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
file(WRITE "${OUT}.tmp"
"/* Generated from tools/monitor/index.html by monitor/embed.cmake. */
const char mon_page_html[] = {
${body}0x00};
const unsigned long mon_page_html_len = ${bytes};
")
file(RENAME "${OUT}.tmp" "${OUT}")
