NAME bad
ROWS
 N obj
COLUMNS
 x obj 1 nosuchrow 2
ENDATA
