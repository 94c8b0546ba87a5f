//! Classes: the compiled declaration (`ClassDef`, immutable, part of a
//! program) and the bound class a context builds from it (`Class`, Zend's
//! `zend_class_entry` after inheritance: parent's properties, constants and
//! methods merged in, property slots numbered, static property cells shared
//! with the parent where not redeclared).

use std::cell::UnsafeCell;

use crate::exec::vm::{new_map, FastMap};
use crate::ops::TypeMask;
use crate::runtime::function::{FuncEntry, Function};
use crate::value::Zval;

// Member flags (Zend's ZEND_ACC_*).
pub const ACC_PUBLIC: u32 = 1 << 0;
pub const ACC_PROTECTED: u32 = 1 << 1;
pub const ACC_PRIVATE: u32 = 1 << 2;
pub const ACC_VISIBILITY: u32 = ACC_PUBLIC | ACC_PROTECTED | ACC_PRIVATE;
pub const ACC_STATIC: u32 = 1 << 4;
pub const ACC_FINAL: u32 = 1 << 5;
pub const ACC_ABSTRACT: u32 = 1 << 6;
pub const ACC_READONLY: u32 = 1 << 7;
/// A class constant that is an enum case (Zend's `ZEND_CLASS_CONST_IS_CASE`).
pub const CONST_CASE: u32 = 1 << 8;

// Class flags.
pub const CLASS_INTERFACE: u32 = 1 << 0;
pub const CLASS_TRAIT: u32 = 1 << 1;
pub const CLASS_ABSTRACT: u32 = 1 << 2;
pub const CLASS_FINAL: u32 = 1 << 3;
pub const CLASS_ENUM: u32 = 1 << 4;
pub const CLASS_READONLY: u32 = 1 << 5;
/// Builtin class (its methods are Rust functions).
pub const CLASS_INTERNAL: u32 = 1 << 6;
/// Objects accept dynamic properties without a deprecation (stdClass,
/// `#[AllowDynamicProperties]`).
pub const CLASS_ALLOW_DYNAMIC: u32 = 1 << 7;
pub const CLASS_ANONYMOUS: u32 = 1 << 8;
/// A backed enum and its backing type.
pub const CLASS_ENUM_INT: u32 = 1 << 9;
pub const CLASS_ENUM_STRING: u32 = 1 << 10;

/// A value known at compile time, or code that computes it (a constant
/// expression such as `self::A * 2`), run once in the class's scope.
pub enum Init {
    Lit(Zval),
    Code(Box<Function>),
}

pub struct ConstDef {
    pub name: Vec<u8>,
    pub value: Init,
    pub flags: u32,
    pub line: u32,
}

pub struct PropDef {
    pub name: Vec<u8>,
    /// None: no default (NULL, or uninitialized when typed).
    pub default: Option<Init>,
    pub flags: u32,
    pub ty: Option<(TypeMask, String)>,
    pub line: u32,
}

pub struct MethodDef {
    pub func: Box<Function>,
    pub flags: u32,
}

/// A conflict-resolution rule of a `use T { … }` block.
pub enum TraitRule {
    /// `T::m insteadof A, B;`
    Insteadof { trait_: Vec<u8>, method: Vec<u8>, instead_of: Vec<Vec<u8>> },
    /// `[T::]m as [visibility] [alias];` (`flags`: a visibility or 0).
    Alias { trait_: Option<Vec<u8>>, method: Vec<u8>, flags: u32, alias: Option<Vec<u8>> },
}

/// A class declaration as compiled. Immutable; shared across threads.
pub struct ClassDef {
    pub name: Vec<u8>,
    pub flags: u32,
    pub parent: Option<Vec<u8>>,
    pub interfaces: Vec<Vec<u8>>,
    pub traits: Vec<Vec<u8>>,
    pub trait_rules: Vec<TraitRule>,
    pub consts: Vec<ConstDef>,
    pub props: Vec<PropDef>,
    pub methods: Vec<MethodDef>,
    /// Enum cases, in order: (name, backing value).
    pub cases: Vec<(Vec<u8>, Option<Init>)>,
    pub line: u32,
    pub end_line: u32,
    /// Immutable boxes made for literal values (see `ops::make_immutable`).
    pub pool: Vec<*mut crate::value::GcHeader>,
}

impl ClassDef {
    pub fn new(name: &[u8], flags: u32, line: u32) -> ClassDef {
        ClassDef {
            name: name.to_vec(),
            flags,
            parent: None,
            interfaces: Vec::new(),
            traits: Vec::new(),
            trait_rules: Vec::new(),
            consts: Vec::new(),
            props: Vec::new(),
            methods: Vec::new(),
            cases: Vec::new(),
            line,
            end_line: line,
            pool: Vec::new(),
        }
    }

    /// Makes every literal value immutable (for a def shared across threads).
    pub fn freeze(&mut self) {
        let pool = &mut self.pool;
        let lits = self.consts.iter_mut().map(|c| &mut c.value)
            .chain(self.props.iter_mut().filter_map(|p| p.default.as_mut()))
            .chain(self.cases.iter_mut().filter_map(|c| c.1.as_mut()));
        for i in lits {
            if let Init::Lit(v) = i {
                crate::ops::make_immutable(v, pool);
            }
        }
    }
}

impl Drop for ClassDef {
    fn drop(&mut self) {
        let lits = self.consts.iter().map(|c| &c.value)
            .chain(self.props.iter().filter_map(|p| p.default.as_ref()))
            .chain(self.cases.iter().filter_map(|c| c.1.as_ref()));
        for i in lits {
            if let Init::Lit(v) = i {
                // SAFETY: a literal that is not immutable is owned by the def alone.
                unsafe { v.ptr_dtor() };
            }
        }
        for h in self.pool.drain(..) {
            // SAFETY: the pool's boxes were made for this def and nothing
            // refers to them once it is dropped.
            unsafe { crate::value::array::free_immutable_box(h) };
        }
    }
}

// SAFETY: once frozen, a def's literals are immutable boxes (never
// refcounted); its functions are immutable op arrays.
unsafe impl Send for ClassDef {}
unsafe impl Sync for ClassDef {}

/// An instance property of a bound class.
pub struct PropInfo {
    pub name: Vec<u8>,
    pub flags: u32,
    /// The class that declared it.
    pub scope: *const Class,
    pub slot: u32,
    pub ty: Option<(TypeMask, String)>,
}

/// A method of a bound class (inherited ones point at the parent's).
#[derive(Clone, Copy)]
pub struct Method {
    pub entry: *mut FuncEntry,
    pub flags: u32,
    /// The class that declared it (`self` inside it).
    pub scope: *const Class,
}

impl Method {
    #[inline]
    pub fn func(&self) -> &Function {
        // SAFETY: method entries point at functions owned by a program or the builtin registry.
        unsafe { &*(*self.entry).func }
    }
}

/// A class constant's cell, owned by the declaring class.
pub struct ConstCell {
    pub value: UnsafeCell<Zval>,
    /// Code that computes the value on first use (null when known).
    pub init: *const Function,
    pub flags: u32,
    pub scope: *const Class,
    /// Being computed (a self-referencing constant is an error).
    pub busy: UnsafeCell<bool>,
    /// An enum case (`CONST_CASE`): its backing value when known at
    /// compile time (NULL for a pure enum); `init` computes it otherwise.
    /// The case object itself is made at the first fetch and kept in `value`.
    pub backing: Zval,
}

/// A static property's cell, owned by the class that declared it.
pub struct StaticCell {
    pub value: UnsafeCell<Zval>,
    pub init: *const Function,
    pub flags: u32,
    pub scope: *const Class,
}

/// Magic methods looked up once at binding.
#[derive(Clone, Copy, Default)]
pub struct Magic {
    pub construct: Option<Method>,
    pub destruct: Option<Method>,
    pub tostring: Option<Method>,
    pub get: Option<Method>,
    pub set: Option<Method>,
    pub isset: Option<Method>,
    pub unset: Option<Method>,
    pub call: Option<Method>,
    pub call_static: Option<Method>,
    pub invoke: Option<Method>,
}

/// A class bound in one context.
pub struct Class {
    pub name: Vec<u8>,
    pub lc: Vec<u8>,
    pub flags: u32,
    pub parent: *const Class,
    /// Every interface implemented, inherited ones included.
    pub interfaces: Vec<*const Class>,
    pub consts: FastMap<Vec<u8>, *const ConstCell>,
    /// Instance properties in slot order (inherited first).
    pub props: Vec<PropInfo>,
    /// Visible property name → index in `props`. A parent's private
    /// properties are reachable only under Zend's mangled key
    /// `"\0Class\0name"`.
    pub prop_map: FastMap<Vec<u8>, u32>,
    /// Default slot values (copied into each new object); computed at the
    /// first instantiation when some default needs code.
    pub defaults: UnsafeCell<Vec<Zval>>,
    pub defaults_ready: UnsafeCell<bool>,
    /// Property defaults to compute: (slot, code, declaring class).
    pub default_inits: Vec<(u32, *const Function, *const Class)>,
    pub statics: FastMap<Vec<u8>, *const StaticCell>,
    pub methods: FastMap<Vec<u8>, Method>,
    pub magic: Magic,
    /// Cells and entries this class declared (inherited ones belong to the parent).
    pub own_consts: Vec<Box<ConstCell>>,
    pub own_statics: Vec<Box<StaticCell>>,
    pub own_entries: Vec<Box<FuncEntry>>,
    /// Enum cases in order.
    pub cases: Vec<Vec<u8>>,
    /// A backed enum's case values were computed and checked for
    /// duplicates (at the first case fetch or `from`).
    pub enum_checked: UnsafeCell<bool>,
    pub def: *const ClassDef,
    /// Builtin classes: the Rust hook that fills a new object's native state.
    pub create: Option<unsafe fn(&mut crate::exec::Vm, *mut crate::value::object::ZObject)>,
}

impl Class {
    pub fn new(name: &[u8], flags: u32) -> Class {
        Class {
            name: name.to_vec(),
            lc: name.to_ascii_lowercase(),
            flags,
            parent: core::ptr::null(),
            interfaces: Vec::new(),
            consts: new_map(),
            props: Vec::new(),
            prop_map: new_map(),
            defaults: UnsafeCell::new(Vec::new()),
            defaults_ready: UnsafeCell::new(true),
            default_inits: Vec::new(),
            statics: new_map(),
            methods: new_map(),
            magic: Magic::default(),
            own_consts: Vec::new(),
            own_statics: Vec::new(),
            own_entries: Vec::new(),
            cases: Vec::new(),
            enum_checked: UnsafeCell::new(false),
            def: core::ptr::null(),
            create: None,
        }
    }

    /// The name as PHP's C-string formatting shows it: an anonymous class's
    /// name stops at its NUL (`class@anonymous`).
    pub fn display_name(&self) -> &[u8] {
        match self.name.iter().position(|&b| b == 0) {
            Some(i) => &self.name[..i],
            None => &self.name,
        }
    }

    pub fn name_str(&self) -> String {
        String::from_utf8_lossy(self.display_name()).into_owned()
    }

    /// `instanceof`: this class is `other`, extends it or implements it.
    pub fn is_subclass_of(&self, other: *const Class) -> bool {
        let mut c: *const Class = self;
        while !c.is_null() {
            if core::ptr::eq(c, other) {
                return true;
            }
            // SAFETY: parents are bound classes that outlive their children.
            c = unsafe { (*c).parent };
        }
        self.interfaces.iter().any(|&i| core::ptr::eq(i, other))
    }

    /// The same test by lowercase name (for classes that may not be bound).
    pub fn is_subclass_of_name(&self, lc: &[u8]) -> bool {
        let mut c: *const Class = self;
        while !c.is_null() {
            // SAFETY: as above.
            unsafe {
                if (*c).lc == lc {
                    return true;
                }
                c = (*c).parent;
            }
        }
        // SAFETY: interfaces are bound classes.
        self.interfaces.iter().any(|&i| unsafe { (*i).lc == lc })
    }

    pub fn is_internal(&self) -> bool {
        self.flags & CLASS_INTERNAL != 0
    }

    pub fn is_interface(&self) -> bool {
        self.flags & CLASS_INTERFACE != 0
    }

    pub fn find_method(&self, lc: &[u8]) -> Option<Method> {
        self.methods.get(lc).copied()
    }

    /// The property visible under `name` (no scope rules applied).
    pub fn find_prop(&self, name: &[u8]) -> Option<&PropInfo> {
        self.prop_map.get(name).map(|&i| &self.props[i as usize])
    }
}

impl Drop for Class {
    fn drop(&mut self) {
        for v in self.defaults.get_mut().iter() {
            // SAFETY: the class owns its default values.
            unsafe { v.ptr_dtor() };
        }
        for c in &self.own_consts {
            // SAFETY: the cell owns its value and backing value.
            unsafe {
                (*c.value.get()).ptr_dtor();
                c.backing.ptr_dtor();
            }
        }
        for s in &self.own_statics {
            // SAFETY: the cell owns its value.
            unsafe { (*s.value.get()).ptr_dtor() };
        }
    }
}

/// `private`/`protected`/`public` as PHP writes it.
pub fn visibility_name(flags: u32) -> &'static str {
    if flags & ACC_PRIVATE != 0 {
        "private"
    } else if flags & ACC_PROTECTED != 0 {
        "protected"
    } else {
        "public"
    }
}
