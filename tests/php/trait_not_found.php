<?php
class C { use Missing; }
