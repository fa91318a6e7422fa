NAME q
ROWS
 N obj
 E c1
COLUMNS
 x obj 1 c1 1
 y c1 1
RHS
 rhs c1 1
QUADOBJ
 x x 2
 y x 1
 y y 2
ENDATA
