<?php
sprintf("x" "%d records, %d regions, %d reps");
