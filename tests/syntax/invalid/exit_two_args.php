<?php
exit(1, 2);
