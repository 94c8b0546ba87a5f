<?php
f(,);
