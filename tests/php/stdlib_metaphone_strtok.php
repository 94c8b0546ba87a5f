<?php
foreach (["Thompson", "Knight", "Thumb", "Wright", "Xavier", "science", "Schwarz", "judge", "laugh", "Ghost", "phone", "aero", "church", "nation", "shoe", "Michael", "dodge", "gnome", "hello world", "", "123", "Tomato", "bigger", "Agnes", "signed", "WHITE"] as $w) echo $w, " => ", metaphone($w), " ", metaphone($w, 2), "\n";
$tok = strtok("This is\tan example\nstring", " \n\t");
while ($tok !== false) { echo "Word=$tok\n"; $tok = strtok(" \n\t"); }
var_dump(strtok("/something", "/"), strtok("/"), strtok("a,,b", ","), strtok(","), strtok(","));
