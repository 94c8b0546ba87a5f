<?php
declare(strict_types=1);

namespace App\Models;

use App\Contracts\{Repository, Cache as CacheContract};
use App\Support\{Str, function helper, const VERSION};
use function App\Support\format_name, App\Support\other;
use const App\Support\MAX_SIZE;
use Vendor\Package\Thing as OtherThing, \Closure;
use function strlen as len;
use const PHP_EOL as NL;
use App\Deep\{Sub\One, Sub\Two as Deux,};

const LOCAL = 1, OTHER = LOCAL + 1;

function helper_here(): string
{
    return __NAMESPACE__ . '\\' . __FUNCTION__;
}

echo namespace\helper_here(), \strlen('x'), Str::class, \App\Models\LOCAL;
echo OtherThing::class, Deux::class, len('ab'), NL;

namespace App\Other;

echo __NAMESPACE__;
