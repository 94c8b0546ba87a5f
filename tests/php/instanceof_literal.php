<?php class A {} var_dump(null instanceof A, "B" instanceof A, [] instanceof A, 5 instanceof A);
