<?php
enum E {
    case A: ;
}
