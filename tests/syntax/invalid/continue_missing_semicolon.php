<?php
while (1) {
    continue 2 if (1) {}
}
