from tierscope.cli import console

console()
