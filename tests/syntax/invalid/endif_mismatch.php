<?php
if (1): echo 1; endwhile;
