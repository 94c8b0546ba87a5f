<?php
if (1 {
}
