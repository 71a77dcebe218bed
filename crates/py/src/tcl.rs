//! The backend commands of the Tcl layer (`::dumbbell::be::*`) as Tcl
//! commands written in Rust, and a Tcl interpreter of our own for
//! `dumbbell run`.
//!
//! Scripts call the engine thousands of times while they build a topology
//! (every `target`, every bound-variable read or write, every new split
//! object).  Through tkinter each call converted its arguments to Python
//! strings, ran a Python function and came back; here the command reads its
//! arguments from the Tcl objects and calls the engine directly.
//!
//! The interpreter is ours (`TclInterp`) or the one tkinter created; the Tcl
//! C API is reached through the stub table every Tcl 8.x interpreter carries
//! (`Tcl_InitStubs` does the same for extensions): a pointer stored right
//! after the three public fields of `Tcl_Interp`, to a table of functions
//! whose order is fixed by Tcl's stub ABI (tclDecls.h).  Nothing links
//! against libtcl.
//!
//! The commands behave as the Python implementations in `runner.py` (kept
//! for interpreters whose stub table is not Tcl 8.6's, and chosen by
//! `DUMBBELL_TCL=pycommands`): same results, same
//! error messages, output drained and engine-requested Tcl run (through the
//! runner's `service` callback) before any other Tcl code.
//!
//! Every function Tcl calls (`extern "C"`) catches panics: a panic that
//! unwinds into C aborts the process.  A command's panic becomes its Tcl
//! error (and, for the engine's commands, the panic the runner reports); a
//! delete callback that panics leaves its data alone.

use crate::Engine;
use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::panic::PanicException;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use std::any::Any;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::ffi::{c_char, c_int, c_void, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;
use std::sync::atomic::{AtomicU8, Ordering};

const TCL_OK: c_int = 0;
const TCL_ERROR: c_int = 1;
const TCL_RETURN: c_int = 2;
const TCL_STUB_MAGIC: c_int = 0xFCA3BACFu32 as c_int;
const TCL_GLOBAL_ONLY: c_int = 1;
const TCL_LEAVE_ERR_MSG: c_int = 0x200;
const TCL_EVAL_GLOBAL: c_int = 0x20000;
const TCL_EVAL_DIRECT: c_int = 0x40000;

#[repr(C)]
struct TclObj {
    ref_count: c_int,
}

type Interp = c_void;
type ObjCmdProc = unsafe extern "C" fn(*mut c_void, *mut Interp, c_int, *const *mut TclObj) -> c_int;
type CmdDeleteProc = unsafe extern "C" fn(*mut c_void);

/// The functions of Tcl's stub table this module uses (indices from
/// tclDecls.h; entry `i` is at `2 + i` pointers from the table's start,
/// after the magic number and the hooks pointer).
#[derive(Clone, Copy)]
struct Stubs {
    pkg_require_ex: unsafe extern "C" fn(*mut Interp, *const c_char, *const c_char, c_int, *mut c_void) -> *const c_char,
    db_decr_ref_count: unsafe extern "C" fn(*mut TclObj, *const c_char, c_int),
    get_string_from_obj: unsafe extern "C" fn(*mut TclObj, *mut c_int) -> *const c_char,
    list_obj_get_elements: unsafe extern "C" fn(*mut Interp, *mut TclObj, *mut c_int, *mut *mut *mut TclObj) -> c_int,
    new_list_obj: unsafe extern "C" fn(c_int, *const *mut TclObj) -> *mut TclObj,
    new_string_obj: unsafe extern "C" fn(*const c_char, c_int) -> *mut TclObj,
    create_obj_command: unsafe extern "C" fn(*mut Interp, *const c_char, ObjCmdProc, *mut c_void, Option<CmdDeleteProc>) -> *mut c_void,
    get_obj_result: unsafe extern "C" fn(*mut Interp) -> *mut TclObj,
    set_obj_result: unsafe extern "C" fn(*mut Interp, *mut TclObj),
    eval_objv: unsafe extern "C" fn(*mut Interp, c_int, *const *mut TclObj, c_int) -> c_int,
    get_var2_ex: unsafe extern "C" fn(*mut Interp, *const c_char, *const c_char, c_int) -> *mut TclObj,
    set_var2_ex: unsafe extern "C" fn(*mut Interp, *const c_char, *const c_char, *mut TclObj, c_int) -> *mut TclObj,
    list_obj_append_element: unsafe extern "C" fn(*mut Interp, *mut TclObj, *mut TclObj) -> c_int,
    delete_command: unsafe extern "C" fn(*mut Interp, *const c_char) -> c_int,
    delete_interp: unsafe extern "C" fn(*mut Interp),
    init: unsafe extern "C" fn(*mut Interp) -> c_int,
    eval_ex: unsafe extern "C" fn(*mut Interp, *const c_char, c_int, c_int) -> c_int,
    save_interp_state: unsafe extern "C" fn(*mut Interp, c_int) -> *mut c_void,
    restore_interp_state: unsafe extern "C" fn(*mut Interp, *mut c_void) -> c_int,
    get_command_info: unsafe extern "C" fn(*mut Interp, *const c_char, *mut CmdInfo) -> c_int,
    set_command_info: unsafe extern "C" fn(*mut Interp, *const c_char, *const CmdInfo) -> c_int,
    async_create: unsafe extern "C" fn(AsyncProc, *mut c_void) -> *mut c_void,
    async_delete: unsafe extern "C" fn(*mut c_void),
    async_mark: unsafe extern "C" fn(*mut c_void),
    set_panic_proc: unsafe extern "C" fn(PanicProc),
}

/// Tcl_PanicProc: `void (const char *format, ...)`.  Ours reads only the
/// format (the one argument every ABI passes as a fixed one).
type PanicProc = unsafe extern "C" fn(*const c_char) -> !;

type AsyncProc = unsafe extern "C" fn(*mut c_void, *mut Interp, c_int) -> c_int;

/// Tcl's `Tcl_CmdInfo` (tcl.h).
#[repr(C)]
#[derive(Clone, Copy)]
struct CmdInfo {
    is_native: c_int,
    obj_proc: Option<ObjCmdProc>,
    obj_cd: *mut c_void,
    proc_: *mut c_void,
    cd: *mut c_void,
    delete_proc: *mut c_void,
    delete_data: *mut c_void,
    namespace: *mut c_void,
}

impl Stubs {
    /// The stub table of `interp`, if it is a Tcl 8.6 interpreter's.
    // (Each transmute's target is the type of the field it initialises.)
    #[allow(clippy::missing_transmute_annotations)]
    unsafe fn of(interp: *mut Interp) -> Option<Stubs> {
        if interp.is_null() {
            return None;
        }
        // struct Interp { char *result; Tcl_FreeProc *freeProc; int errorLine; const TclStubs *stubTable; ... }
        #[repr(C)]
        struct InterpHead {
            result: *mut c_char,
            free_proc: *mut c_void,
            error_line: c_int,
            stub_table: *const *const c_void,
        }
        let table = (*(interp as *const InterpHead)).stub_table;
        if table.is_null() || *(table as *const c_int) != TCL_STUB_MAGIC {
            return None;
        }
        let f = |i: usize| *table.add(2 + i);
        macro_rules! get {
            ($i:expr) => {{
                let p = f($i);
                if p.is_null() {
                    return None;
                }
                std::mem::transmute::<*const c_void, _>(p)
            }};
        }
        let s = Stubs {
            pkg_require_ex: get!(1),
            db_decr_ref_count: get!(19),
            get_string_from_obj: get!(41),
            list_obj_get_elements: get!(45),
            new_list_obj: get!(53),
            new_string_obj: get!(56),
            create_obj_command: get!(96),
            get_obj_result: get!(166),
            set_obj_result: get!(235),
            eval_objv: get!(292),
            get_var2_ex: get!(306),
            set_var2_ex: get!(317),
            list_obj_append_element: get!(44),
            delete_command: get!(103),
            delete_interp: get!(110),
            init: get!(180),
            eval_ex: get!(291),
            save_interp_state: get!(535),
            restore_interp_state: get!(536),
            get_command_info: get!(159),
            set_command_info: get!(226),
            async_create: get!(71),
            async_delete: get!(72),
            async_mark: get!(74),
            set_panic_proc: get!(230),
        };
        // The table's layout is Tcl 8's: make sure the interpreter is 8.6.
        let (tcl, v86) = (c"Tcl", c"8.6");
        if (s.pkg_require_ex)(interp, tcl.as_ptr(), v86.as_ptr(), 0, std::ptr::null_mut()).is_null() {
            return None;
        }
        Some(s)
    }

    /// A Tcl string object from bytes already in Tcl's form.
    unsafe fn new_bytes(&self, b: &[u8]) -> *mut TclObj {
        (self.new_string_obj)(b.as_ptr() as *const c_char, b.len().min(c_int::MAX as usize) as c_int)
    }

    /// A Tcl string object (an embedded NUL is encoded as Tcl does).
    unsafe fn new_str(&self, s: &str) -> *mut TclObj {
        self.new_bytes(&tcl_form(s.as_bytes()))
    }

    unsafe fn incr(&self, o: *mut TclObj) {
        (*o).ref_count += 1;
    }

    unsafe fn decr(&self, o: *mut TclObj) {
        (self.db_decr_ref_count)(o, c"tcl.rs".as_ptr(), 0);
    }

    /// The bytes of a Tcl object's string (Tcl's internal form).
    unsafe fn bytes<'a>(&self, o: *mut TclObj) -> &'a [u8] {
        let mut n: c_int = 0;
        let p = (self.get_string_from_obj)(o, &mut n);
        if p.is_null() || n <= 0 {
            return &[];
        }
        std::slice::from_raw_parts(p as *const u8, n as usize)
    }

    /// The string of a Tcl object as Rust text (see `text_of_tcl`).
    unsafe fn string(&self, o: *mut TclObj) -> String {
        text_of_tcl(self.bytes(o)).into_owned()
    }

    unsafe fn set_result(&self, interp: *mut Interp, s: &str) {
        (self.set_obj_result)(interp, self.new_str(s));
    }

    /// Evaluate the command `words` at the current level; its result or
    /// error message.
    unsafe fn call(&self, interp: *mut Interp, words: &[&str]) -> Result<String, String> {
        let objs: Vec<*mut TclObj> = words.iter().map(|w| self.new_str(w)).collect();
        for &o in &objs {
            self.incr(o);
        }
        let code = (self.eval_objv)(interp, objs.len() as c_int, objs.as_ptr(), TCL_EVAL_DIRECT | TCL_EVAL_GLOBAL);
        for &o in &objs {
            self.decr(o);
        }
        let r = self.string((self.get_obj_result)(interp));
        if code == TCL_OK {
            Ok(r)
        } else {
            Err(r)
        }
    }

    /// Evaluate the command `words` at the current level, as if the
    /// caller's script had called it; its result (and errorInfo) stay in
    /// the interpreter.  The return code.
    unsafe fn eval_words(&self, interp: *mut Interp, words: &[&str]) -> c_int {
        let objs: Vec<*mut TclObj> = words.iter().map(|w| self.new_str(w)).collect();
        for &o in &objs {
            self.incr(o);
        }
        let code = (self.eval_objv)(interp, objs.len() as c_int, objs.as_ptr(), 0);
        for &o in &objs {
            self.decr(o);
        }
        code
    }

    unsafe fn split(&self, interp: *mut Interp, list: &str) -> Result<Vec<String>, String> {
        let o = self.new_str(list);
        self.incr(o);
        let mut n: c_int = 0;
        let mut v: *mut *mut TclObj = std::ptr::null_mut();
        let r = if (self.list_obj_get_elements)(interp, o, &mut n, &mut v) == TCL_OK {
            Ok((0..n as usize).map(|i| self.string(*v.add(i))).collect())
        } else {
            Err(self.string((self.get_obj_result)(interp)))
        };
        self.decr(o);
        r
    }
}

// ---- strings --------------------------------------------------------------------
//
// Tcl 8.6 keeps strings as UTF-8 with two liberties: NUL is written C0 80
// (so that a string never holds a zero byte), and a character beyond U+FFFF
// may be written as a surrogate pair, each half a three-byte sequence (Tcl
// makes such pairs itself: `encoding convertfrom utf-8`, and `string range`
// may cut a pair in two).  A byte that begins no valid sequence (C code,
// `encoding convertfrom identity`) is, for Tcl, the Latin-1 character of
// that value.  Valid UTF-8 is by far the common case and is handled without
// any of this.

/// One character of a Tcl string, or a byte that begins no valid sequence.
enum Unit {
    Char(u32),
    Byte(u8),
}

/// The unit `b` (not empty) begins with, and its length in bytes.
fn unit(b: &[u8]) -> (Unit, usize) {
    let cont = |i: usize| b.get(i).is_some_and(|&c| c & 0xC0 == 0x80);
    let low6 = |i: usize| (b[i] & 0x3F) as u32;
    let b0 = b[0];
    match b0 {
        0x00..=0x7F => (Unit::Char(b0 as u32), 1),
        0xC0 if b.get(1) == Some(&0x80) => (Unit::Char(0), 2),
        0xC2..=0xDF if cont(1) => (Unit::Char((b0 as u32 & 0x1F) << 6 | low6(1)), 2),
        0xE0..=0xEF if cont(1) && cont(2) && (b0 != 0xE0 || b[1] >= 0xA0) => {
            let c = (b0 as u32 & 0x0F) << 12 | low6(1) << 6 | low6(2);
            if (0xD800..0xDC00).contains(&c) && b.len() >= 6 && b[3] == 0xED && (0xB0..=0xBF).contains(&b[4]) && cont(5) {
                let lo = 0xD000 | low6(4) << 6 | low6(5);
                return (Unit::Char(0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00)), 6);
            }
            (Unit::Char(c), 3)
        }
        0xF0..=0xF4 if cont(1) && cont(2) && cont(3) && (b0 != 0xF0 || b[1] >= 0x90) && (b0 != 0xF4 || b[1] < 0x90) => {
            (Unit::Char((b0 as u32 & 0x07) << 18 | low6(1) << 12 | low6(2) << 6 | low6(3)), 4)
        }
        _ => (Unit::Byte(b0), 1),
    }
}

/// Append code point `c` (a surrogate too) in UTF-8's encoding scheme.
fn push_code_point(v: &mut Vec<u8>, c: u32) {
    if c < 0x80 {
        v.push(c as u8);
    } else if c < 0x800 {
        v.extend([0xC0 | (c >> 6) as u8, 0x80 | (c & 0x3F) as u8]);
    } else if c < 0x10000 {
        v.extend([0xE0 | (c >> 12) as u8, 0x80 | (c >> 6 & 0x3F) as u8, 0x80 | (c & 0x3F) as u8]);
    } else {
        v.extend([0xF0 | (c >> 18) as u8, 0x80 | (c >> 12 & 0x3F) as u8, 0x80 | (c >> 6 & 0x3F) as u8, 0x80 | (c & 0x3F) as u8]);
    }
}

/// A Tcl string as Rust text, read as Tcl reads it (a stray byte is its
/// Latin-1 character); half a surrogate pair, which Rust text cannot hold,
/// becomes U+FFFD.  For the engine's commands.
fn text_of_tcl(b: &[u8]) -> Cow<'_, str> {
    if let Ok(s) = std::str::from_utf8(b) {
        return Cow::Borrowed(s);
    }
    let mut s = String::with_capacity(b.len() + 8);
    let mut i = 0;
    while i < b.len() {
        let (u, n) = unit(&b[i..]);
        s.push(match u {
            Unit::Char(c) => char::from_u32(c).unwrap_or('\u{FFFD}'),
            Unit::Byte(x) => x as char,
        });
        i += n;
    }
    Cow::Owned(s)
}

/// A Tcl string as a Python str, losslessly: a stray byte becomes
/// U+DC80..U+DCFF as with Python's "surrogateescape" (tkinter does the
/// same), half a surrogate pair stays that surrogate.
fn py_text_of_tcl<'py>(py: Python<'py>, b: &[u8]) -> PyResult<Bound<'py, PyString>> {
    if let Ok(s) = std::str::from_utf8(b) {
        return Ok(PyString::new(py, s));
    }
    let mut v = Vec::with_capacity(b.len() + 16);
    let mut i = 0;
    while i < b.len() {
        let (u, n) = unit(&b[i..]);
        push_code_point(&mut v, match u {
            Unit::Char(c) => c,
            Unit::Byte(x) => 0xDC00 + x as u32,
        });
        i += n;
    }
    let o = unsafe { ffi::PyUnicode_DecodeUTF8(v.as_ptr() as *const c_char, v.len() as ffi::Py_ssize_t, c"surrogatepass".as_ptr()) };
    Ok(unsafe { Bound::from_owned_ptr_or_err(py, o) }?.cast_into::<PyString>()?)
}

/// UTF-8 in Tcl's form: NUL as C0 80.
fn tcl_form(b: &[u8]) -> Cow<'_, [u8]> {
    if !b.contains(&0) {
        return Cow::Borrowed(b);
    }
    let mut v = Vec::with_capacity(b.len() + 8);
    for &c in b {
        if c == 0 {
            v.extend_from_slice(&[0xC0, 0x80]);
        } else {
            v.push(c);
        }
    }
    Cow::Owned(v)
}

/// A Python str in Tcl's form, the inverse of `py_text_of_tcl`: NUL as
/// C0 80, U+DC80..U+DCFF as the byte it stands for, any other lone
/// surrogate as its three-byte sequence.
fn tcl_bytes_of_str<'a>(s: &'a Bound<'_, PyString>) -> PyResult<Cow<'a, [u8]>> {
    if let Ok(t) = s.to_str() {
        return Ok(tcl_form(t.as_bytes()));
    }
    // Lone surrogates (the only strings to_str refuses).
    let enc = unsafe { ffi::PyUnicode_AsEncodedString(s.as_ptr(), c"utf-8".as_ptr(), c"surrogatepass".as_ptr()) };
    let enc = unsafe { Bound::from_owned_ptr_or_err(s.py(), enc) }?.cast_into::<PyBytes>()?;
    let b = enc.as_bytes();
    let mut v = Vec::with_capacity(b.len() + 8);
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            0 => v.extend_from_slice(&[0xC0, 0x80]),
            0xED if i + 2 < b.len() && (b[i + 1] == 0xB2 || b[i + 1] == 0xB3) => {
                v.push(0x80 | (b[i + 1] & 1) << 6 | (b[i + 2] & 0x3F));
                i += 3;
                continue;
            }
            c => v.push(c),
        }
        i += 1;
    }
    Ok(Cow::Owned(v))
}

/// A Tcl object for a Python value: a str, a tuple or list (a Tcl list of
/// its items), or anything else by its str().
unsafe fn obj_of_py(st: &Stubs, v: &Bound<'_, PyAny>) -> PyResult<*mut TclObj> {
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(st.new_bytes(&tcl_bytes_of_str(s)?));
    }
    if v.is_instance_of::<PyTuple>() || v.is_instance_of::<PyList>() {
        let l = (st.new_list_obj)(0, std::ptr::null());
        for item in v.try_iter()? {
            match item.and_then(|it| obj_of_py(st, &it)) {
                Ok(o) => {
                    (st.list_obj_append_element)(std::ptr::null_mut(), l, o);
                }
                Err(e) => {
                    st.incr(l);
                    st.decr(l);
                    return Err(e);
                }
            }
        }
        return Ok(l);
    }
    obj_of_py(st, v.str()?.as_any())
}

/// The string of a Tcl object as a Python str.
unsafe fn py_text<'py>(py: Python<'py>, st: &Stubs, o: *mut TclObj) -> PyResult<Bound<'py, PyString>> {
    py_text_of_tcl(py, st.bytes(o))
}

// ---- panics -------------------------------------------------------------------

/// The text of a panic's payload.
fn panic_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else {
        "panic from Rust code".to_string()
    }
}

/// Where a test may ask for a deliberate panic (`_tcl_fault`): at the start
/// of an engine command, of its delete callback, of a Python command, of
/// its delete callback.
const FAULT_POINTS: [&str; 4] = ["command", "delete", "py_command", "py_delete"];
const F_COMMAND: u8 = 1;
const F_DELETE: u8 = 2;
const F_PY_COMMAND: u8 = 3;
const F_PY_DELETE: u8 = 4;

/// The armed fault point (0: none).
static FAULT: AtomicU8 = AtomicU8::new(0);

#[inline(always)]
fn fault(point: u8) {
    if FAULT.load(Ordering::Relaxed) == point {
        fault_fire(point);
    }
}

#[cold]
#[inline(never)]
fn fault_fire(point: u8) {
    if FAULT.compare_exchange(point, 0, Ordering::Relaxed, Ordering::Relaxed).is_ok() {
        panic!("deliberate panic at {} (requested by a test)", FAULT_POINTS[point as usize - 1]);
    }
}

/// For the tests of the panic paths: the next time Tcl calls into Rust at
/// `point` ("command", "delete", "py_command" or "py_delete"), panic there,
/// once.  None disarms.
#[pyfunction]
#[pyo3(name = "_tcl_fault")]
pub fn tcl_fault(point: Option<&str>) -> PyResult<()> {
    let i = match point {
        None => 0,
        Some(p) => match FAULT_POINTS.iter().position(|&f| f == p) {
            Some(i) => i as u8 + 1,
            None => return Err(PyValueError::new_err(format!("unknown fault point {p:?}; one of {FAULT_POINTS:?}"))),
        },
    };
    FAULT.store(i, Ordering::Relaxed);
    Ok(())
}

/// Free the data of a deleted command, which holds Python references: that
/// needs Python, which is gone when Tcl deletes an interpreter during
/// Python's shutdown (tkinter's is freed then); the data is then left
/// alone, the process is ending.
unsafe fn free_command_data<T>(p: *mut T) {
    let _ = Python::try_attach(|_py| drop(Box::from_raw(p)));
}

// ---- the engine's commands ------------------------------------------------------

/// What the commands share.
struct Backend {
    stubs: Stubs,
    interp: *mut Interp,
    engine: Py<Engine>,
    kinds: HashSet<&'static str>,
    /// Engine class of an OTcl class, by (class, defaults epoch).
    kind_cache: RefCell<HashMap<(String, String), Option<&'static str>>>,
    /// Registered class defaults, by (kind, class, defaults epoch).
    defaults_cache: RefCell<HashMap<(String, String, String), u32>>,
    /// The kind of every split object with an engine part, as the Tcl
    /// layer's `::dumbbell::_kind` has it: set when `shadow` succeeds,
    /// dropped by `delete` (which `_detach` calls as it unsets `_kind`).
    obj_kind: RefCell<HashMap<String, &'static str>>,
    /// The bound variables of each kind (for `oset`).
    bound: RefCell<HashMap<&'static str, HashSet<&'static str>>>,
    state: Rc<RefCell<State>>,
}

/// Backend state Python sets or reads.
#[derive(Default)]
struct State {
    /// The next split object adopts this engine object (`be::adopt`).
    adopt_next: Option<String>,
    /// Engine kind for `new RNG` while the library binds the start-up
    /// streams (`RNG/default`, `RNG/rtglib`).
    rng_bind: Option<String>,
    /// The first panic in a command, for the runner to report.
    panic: Option<PyErr>,
}

enum Fail {
    /// A Tcl error with this message.
    Msg(String),
    /// A value the engine refuses (a class default, at `new`): a Tcl error
    /// with this message and the error code `DUMBBELL VALUE`, which the
    /// library tells from a class without an engine part.
    Value(String),
}

/// The error code of `Fail::Value`.
pub const VALUE_ERRORCODE: &str = "DUMBBELL VALUE";

impl From<String> for Fail {
    fn from(s: String) -> Fail {
        Fail::Msg(s)
    }
}

type Cmd = fn(&Backend, &[String]) -> Result<String, Fail>;

/// What a command of the second kind (`OutCmd`) leaves.
enum Out {
    /// Its result.
    Text(String),
    /// It ended with a Tcl evaluation, whose return code this is; the
    /// result (and errorInfo) are the evaluation's.
    Eval(c_int),
}

type OutCmd = fn(&Backend, &[String]) -> Result<Out, Fail>;

#[derive(Clone, Copy)]
enum Func {
    Text(Cmd),
    Out(OutCmd),
}

/// One registered command: the backend and the function.
struct CmdData {
    backend: Rc<Backend>,
    f: Func,
}

/// Every backend command.  Tcl runs it with the GIL released (tkinter
/// releases it around every call into Tcl); commands take it only around
/// engine calls, never while calling back into Tcl, since Tcl may run
/// Python commands, which take it themselves.
/// The body of a Tcl command (an `extern "C"` callback): a panic in it
/// must not unwind into Tcl's C code.  It makes the command fail; `on_panic`
/// (given the panic's text, itself guarded) sets the result and keeps the
/// panic for Python.
#[inline(always)]
unsafe fn guarded(body: impl FnOnce() -> c_int, on_panic: impl FnOnce(&str)) -> c_int {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(code) => code,
        Err(payload) => panicked(&*payload, on_panic),
    }
}

#[cold]
fn panicked(payload: &(dyn Any + Send), on_panic: impl FnOnce(&str)) -> c_int {
    let msg = panic_text(payload);
    let _ = catch_unwind(AssertUnwindSafe(|| on_panic(&msg)));
    TCL_ERROR
}

/// A command's delete callback: frees its data (a `T` in a box) unless
/// that panics, in which case the data is left.
unsafe extern "C" fn delete_data<T, const POINT: u8>(cd: *mut c_void) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        fault(POINT);
        free_command_data(cd as *mut T);
    }));
}

unsafe extern "C" fn trampoline(cd: *mut c_void, interp: *mut Interp, objc: c_int, objv: *const *mut TclObj) -> c_int {
    guarded(
        || {
            fault(F_COMMAND);
            let data = &*(cd as *const CmdData);
            let b = &*data.backend;
            let args: Vec<String> = (1..objc.max(1) as usize).map(|i| b.stubs.string(*objv.add(i))).collect();
            let r = match data.f {
                Func::Text(f) => f(b, &args).map(Out::Text),
                Func::Out(f) => f(b, &args),
            };
            let (code, text) = match r {
                Ok(Out::Text(s)) => (TCL_OK, s),
                Ok(Out::Eval(code)) => return code,
                Err(Fail::Msg(m)) => (TCL_ERROR, m),
                Err(Fail::Value(m)) => return b.stubs.eval_words(interp, &["::error", &m, "", VALUE_ERRORCODE]),
            };
            b.stubs.set_result(interp, &text);
            code
        },
        // A backend command panicked (the engine, most likely): the command
        // fails with the panic's text, and the backend keeps the first panic
        // for the runner, which reports it even if the script catches the
        // error.
        |msg| {
            let b = &*(*(cd as *const CmdData)).backend;
            if let Ok(mut s) = b.state.try_borrow_mut() {
                if s.panic.is_none() {
                    // A lazy exception: made without the GIL.
                    s.panic = Some(PanicException::new_err((msg.to_string(),)));
                }
            }
            b.stubs.set_result(interp, &format!("internal error in the engine: {msg}"));
        },
    )
}

impl Backend {
    /// Is `var` a bound variable of engine class `kind`?
    fn is_bound(&self, kind: &'static str, var: &str) -> bool {
        let mut m = self.bound.borrow_mut();
        let set = m.entry(kind).or_insert_with(|| {
            dumbbell_engine::ns2::objects::bound_vars(kind).unwrap_or_default().into_iter().map(|(n, _)| n).collect()
        });
        set.contains(var)
    }

    fn lookup(&self, py: Python<'_>, obj: &str) -> Result<u32, Fail> {
        self.engine.borrow(py).sim.lookup(obj).ok_or_else(|| Fail::Msg(format!("{obj} has no engine part")))
    }

    /// Has the engine output, warnings or (`run_calls`) Tcl to run for the
    /// runner?
    fn busy(&self, py: Python<'_>, run_calls: bool) -> bool {
        let e = self.engine.borrow(py);
        let w = e.sim.world();
        !w.warnings.is_empty() || w.out.pending != 0 || (run_calls && w.has_notices())
    }

    /// After an engine call that left something for the runner: it drains
    /// output, prints warnings and (`run_calls`) runs the Tcl the engine
    /// asked for, before any other Tcl runs.  Called without the GIL.
    fn service(&self, run_calls: bool) -> Result<(), Fail> {
        // The command's result is set afterwards, so the service's own
        // result does not matter.
        let r = unsafe { self.stubs.call(self.interp, &["::dumbbell::py::after_engine", if run_calls { "1" } else { "0" }]) };
        match r {
            Ok(s) => match s.strip_prefix('\x01') {
                Some(m) => Err(Fail::Msg(m.to_string())),
                None => Ok(()),
            },
            Err(m) => Err(Fail::Msg(m)),
        }
    }

    fn epoch(&self) -> Result<String, Fail> {
        unsafe {
            let o = (self.stubs.get_var2_ex)(self.interp, c"::dumbbell::defaults_epoch".as_ptr(), std::ptr::null(), TCL_GLOBAL_ONLY | TCL_LEAVE_ERR_MSG);
            if o.is_null() {
                return Err(Fail::Msg(self.stubs.string((self.stubs.get_obj_result)(self.interp))));
            }
            Ok(self.stubs.string(o))
        }
    }

    /// What `::dumbbell::class_defaults kind cls` returns (tclobject.tcl),
    /// read from the class variables directly: for every bound variable of
    /// `kind` (in its order), the value of the first class in `cls` and its
    /// heritage that has it as a scalar.
    fn class_defaults(&self, kind: &str, cls: &str) -> Result<Vec<(String, String)>, Fail> {
        let st = &self.stubs;
        let mut spaces: Vec<CString> = Vec::new();
        unsafe {
            // The kind's bound variables are what a class-level `set` must
            // bump the epoch for (`::otcl::_::cvvars`): registered here, as
            // the Tcl `class_defaults` does, and not only once an object of
            // the kind exists (before, a refused default at the first `new`
            // of a kind left its defaults cached for good).
            st.call(self.interp, &["::dumbbell::boundvars", kind])?;
            let h = st.call(self.interp, &["::otcl::api::heritage", cls])?;
            for c in std::iter::once(cls.to_string()).chain(st.split(self.interp, &h)?) {
                let c = CString::new(tcl_form(c.as_bytes()).into_owned()).map_err(|_| Fail::Msg(format!("bad class name {c}")))?;
                let o = (st.get_var2_ex)(self.interp, c"::otcl::_::ns".as_ptr(), c.as_ptr(), TCL_GLOBAL_ONLY | TCL_LEAVE_ERR_MSG);
                if o.is_null() {
                    return Err(Fail::Msg(st.string((st.get_obj_result)(self.interp))));
                }
                spaces.push(CString::new(st.bytes(o).to_vec()).expect("no NUL in Tcl's form"));
            }
        }
        let mut r = Vec::new();
        let mut name = Vec::new();
        for (v, _) in dumbbell_engine::ns2::objects::bound_vars(kind).unwrap_or_default() {
            for ns in &spaces {
                // (a missing variable and an array both read as NULL)
                name.clear();
                name.extend_from_slice(ns.as_bytes());
                name.extend_from_slice(b"::");
                name.extend_from_slice(v.as_bytes());
                name.push(0);
                let o = unsafe { (st.get_var2_ex)(self.interp, name.as_ptr() as *const c_char, std::ptr::null(), TCL_GLOBAL_ONLY) };
                if !o.is_null() {
                    r.push((v.to_string(), unsafe { st.string(o) }));
                    break;
                }
            }
        }
        Ok(r)
    }

    /// The engine's handle for the class defaults of `cls` (engine class
    /// `kind`), registered once per class and `::dumbbell::defaults_epoch`.
    fn defaults_handle(&self, kind: &str, cls: &str, epoch: &str) -> Result<u32, Fail> {
        let key = (kind.to_string(), cls.to_string(), epoch.to_string());
        if let Some(&h) = self.defaults_cache.borrow().get(&key) {
            return Ok(h);
        }
        let pairs = self.class_defaults(kind, cls)?;
        let h = Python::attach(|py| self.engine.borrow_mut(py).sim.register_defaults(pairs));
        self.defaults_cache.borrow_mut().insert(key, h);
        Ok(h)
    }

    /// The engine class of OTcl class `cls`: the first in its heritage the
    /// engine knows.
    fn kind_of(&self, cls: &str, epoch: &str) -> Result<Option<&'static str>, Fail> {
        let key = (cls.to_string(), epoch.to_string());
        if let Some(k) = self.kind_cache.borrow().get(&key) {
            return Ok(*k);
        }
        let heritage = unsafe {
            let h = self.stubs.call(self.interp, &["::otcl::api::heritage", cls])?;
            self.stubs.split(self.interp, &h)?
        };
        let kind = std::iter::once(cls).chain(heritage.iter().map(|s| s.as_str())).find_map(|c| self.kinds.get(c).copied());
        self.kind_cache.borrow_mut().insert(key, kind);
        Ok(kind)
    }
}

// ---- the commands ---------------------------------------------------------------

fn arity(args: &[String], n: usize, name: &str) -> Result<(), Fail> {
    if args.len() < n {
        return Err(Fail::Msg(format!("wrong # args for ::dumbbell::be::{name}")));
    }
    Ok(())
}

/// `shadow obj cls argv`: create the engine part of split object `obj`.
fn be_shadow(b: &Backend, args: &[String]) -> Result<String, Fail> {
    arity(args, 2, "shadow")?;
    let (obj, cls) = (&args[0], &args[1]);
    let epoch = b.epoch()?;
    let kind = b.kind_of(cls, &epoch)?.ok_or_else(|| Fail::Msg(format!("no engine class in the heritage of {cls}")))?;
    let adopt = b.state.borrow_mut().adopt_next.take();
    if let Some(placeholder) = adopt {
        let handle = b.defaults_handle(kind, cls, &epoch)?;
        Python::attach(|py| b.engine.borrow_mut(py).sim.adopt_flow(&placeholder, obj, handle))?;
        b.obj_kind.borrow_mut().insert(obj.clone(), kind);
        return Ok(kind.to_string());
    }
    let bind = b.state.borrow().rng_bind.clone();
    let eng_kind = match (&bind, kind) {
        (Some(r), "RNG") => r.as_str(),
        _ => kind,
    };
    let oid = Python::attach(|py| b.engine.borrow_mut(py).sim.create(obj, eng_kind))?;
    let handle = b.defaults_handle(kind, cls, &epoch)?;
    let busy = Python::attach(|py| {
        // A class default the engine refuses (`Queue/RED set
        // mean_pktsize_ 0`) is the script's error, which `new` raises, not
        // a class without a shadow (for which `new` returns "").
        b.engine.borrow_mut(py).sim.init_defaults_ref(oid, handle).map_err(|e| Fail::Value(format!("{cls}: {e}")))?;
        Ok::<bool, Fail>(b.busy(py, false))
    })?;
    b.obj_kind.borrow_mut().insert(obj.clone(), kind);
    if busy {
        b.service(false)?;
    }
    Ok(kind.to_string())
}

/// `get obj var`: a bound variable's value.
fn be_get(b: &Backend, args: &[String]) -> Result<String, Fail> {
    arity(args, 2, "get")?;
    Python::attach(|py| {
        let id = b.lookup(py, &args[0])?;
        let v = b.engine.borrow_mut(py).sim.get_var(id, &args[1]);
        v.ok_or_else(|| Fail::Msg(format!("{}: no bound variable {}", args[0], args[1])))
    })
}

/// `set obj var value`: set a bound variable; the value read back.
fn be_set(b: &Backend, args: &[String]) -> Result<String, Fail> {
    arity(args, 3, "set")?;
    let (r, busy) = Python::attach(|py| {
        let id = b.lookup(py, &args[0])?;
        let r = b.engine.borrow_mut(py).sim.set_var(id, &args[1], &args[2])?;
        Ok::<_, Fail>((r, b.busy(py, false)))
    })?;
    if busy {
        b.service(false)?;
    }
    Ok(r)
}

/// `cmd obj args...`: an engine command of `obj`.
fn be_cmd(b: &Backend, args: &[String]) -> Result<String, Fail> {
    arity(args, 1, "cmd")?;
    let argv: Vec<&str> = args[1..].iter().map(|s| s.as_str()).collect();
    let (r, busy) = Python::attach(|py| {
        let id = b.lookup(py, &args[0])?;
        let r = b.engine.borrow_mut(py).sim.command(id, &argv)?;
        Ok::<_, Fail>((r, b.busy(py, true)))
    })?;
    if busy {
        b.service(true)?;
    }
    Ok(r)
}

fn be_delete(b: &Backend, args: &[String]) -> Result<String, Fail> {
    if let Some(obj) = args.first() {
        b.obj_kind.borrow_mut().remove(obj);
    }
    Ok(String::new())
}

/// `oset self ?args...?`: SplitObject's `set` method (what the Tcl layer's
/// `::dumbbell::_set` does; as tclcl's, words past the value are ignored): a bound variable of the object's kind is read
/// or written in the engine (as `get` and `set`); anything else is OTcl's
/// own `set` (`::otcl::_::Object.set`, evaluated as the method would call
/// it).
fn be_oset(b: &Backend, args: &[String]) -> Result<Out, Fail> {
    arity(args, 1, "oset")?;
    // tclcl's SplitObject `set` reads only the variable and the value:
    // words after them are ignored (`$q set phi_ 5 # comment` sets 5)
    let args = &args[..args.len().min(3)];
    if args.len() == 2 || args.len() == 3 {
        let kind = b.obj_kind.borrow().get(&args[0]).copied();
        if let Some(kind) = kind {
            if b.is_bound(kind, &args[1]) {
                return if args.len() == 2 { be_get(b, args) } else { be_set(b, args) }.map(Out::Text);
            }
        }
    }
    let mut words: Vec<&str> = Vec::with_capacity(args.len() + 1);
    words.push("::otcl::_::Object.set");
    words.extend(args.iter().map(|s| s.as_str()));
    Ok(Out::Eval(unsafe { b.stubs.eval_words(b.interp, &words) }))
}

/// `ecmd m self args...`: engine command `m` of split object `self`, called
/// as a method no Tcl method handles (what the Tcl layer's
/// `::dumbbell::_ecmd` does).  Refused, it raises the unknown method's error
/// through `::dumbbell::_ecmd_fail msg m self args...`.
fn be_ecmd(b: &Backend, args: &[String]) -> Result<Out, Fail> {
    arity(args, 2, "ecmd")?;
    let mut words: Vec<String> = Vec::with_capacity(args.len());
    words.push(args[1].clone());
    words.push(args[0].clone());
    words.extend(args[2..].iter().cloned());
    // (An engine panic is the command's error here too, as when the
    // method's `catch` caught it: kept for the runner, then wrapped.)
    let r = match catch_unwind(AssertUnwindSafe(|| be_cmd(b, &words))) {
        Ok(r) => r,
        Err(payload) => {
            let msg = panic_text(&*payload);
            if let Ok(mut st) = b.state.try_borrow_mut() {
                if st.panic.is_none() {
                    st.panic = Some(PanicException::new_err((msg.clone(),)));
                }
            }
            Err(Fail::Msg(format!("internal error in the engine: {msg}")))
        }
    };
    match r {
        Ok(s) => Ok(Out::Text(s)),
        Err(Fail::Msg(m) | Fail::Value(m)) => {
            let mut w: Vec<&str> = Vec::with_capacity(args.len() + 2);
            w.push("::dumbbell::_ecmd_fail");
            w.push(&m);
            w.extend(args.iter().map(|s| s.as_str()));
            Ok(Out::Eval(unsafe { b.stubs.eval_words(b.interp, &w) }))
        }
    }
}

/// `adopt placeholder`: the next split object takes over that engine object.
fn be_adopt(b: &Backend, args: &[String]) -> Result<String, Fail> {
    arity(args, 1, "adopt")?;
    b.state.borrow_mut().adopt_next = Some(args[0].clone());
    Ok(String::new())
}

/// `boundvars kind`: the bound variables of an engine class (a list).
fn be_boundvars(b: &Backend, args: &[String]) -> Result<String, Fail> {
    arity(args, 1, "boundvars")?;
    let names: Vec<&str> = dumbbell_engine::ns2::objects::bound_vars(&args[0]).unwrap_or_default().into_iter().map(|(n, _)| n).collect();
    unsafe {
        let objs: Vec<*mut TclObj> = names.iter().map(|n| b.stubs.new_str(n)).collect();
        let l = (b.stubs.new_list_obj)(objs.len() as c_int, objs.as_ptr());
        b.stubs.incr(l);
        let s = b.stubs.string(l);
        b.stubs.decr(l);
        Ok(s)
    }
}

/// `kinds`: the engine's classes (a list), which the library registers
/// (classes.tcl).
fn be_kinds(b: &Backend, args: &[String]) -> Result<String, Fail> {
    arity(args, 0, "kinds")?;
    let names = dumbbell_engine::ns2::objects::kinds();
    unsafe {
        let objs: Vec<*mut TclObj> = names.iter().map(|n| b.stubs.new_str(n)).collect();
        let l = (b.stubs.new_list_obj)(objs.len() as c_int, objs.as_ptr());
        b.stubs.incr(l);
        let s = b.stubs.string(l);
        b.stubs.decr(l);
        Ok(s)
    }
}

// ---- OTcl's instvar rewrite ------------------------------------------------------
//
// `::otcl::_::Rewrite` (otcl.tcl) compiles each method's `$self instvar a b`
// lines to an inline test plus a `namespace upvar`.  It runs once for every
// method a script calls, and in Tcl it costs more than compiling the method
// itself; `::dumbbell::be::rewrite body` is the same function: the same
// lines are rewritten to the same text (tests/otcl compares the two).  It
// works on Tcl's bytes; only ASCII characters are looked at, except for
// what regexp's \s counts as white space.

/// Tcl's regexp `\s` (8.6): the characters it matches.
fn tcl_re_space(c: u32) -> bool {
    matches!(c, 0x09..=0x0D | 0x20 | 0x85 | 0xA0 | 0x1680 | 0x180E | 0x2000..=0x200B | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x2060 | 0x3000 | 0xFEFF)
}

/// Does `line` match `^[ \t]*\$self[ \t]+instvar(?:[ \t]+[A-Za-z0-9_]+)+[ \t]*(?:;.*)?$`
/// (the lines Rewrite rewrites)?
fn instvar_line(line: &[u8]) -> bool {
    let ws = |c: u8| c == b' ' || c == b'\t';
    let mut i = 0;
    while i < line.len() && ws(line[i]) {
        i += 1;
    }
    let Some(r) = line[i..].strip_prefix(b"$self") else { return false };
    let n = r.iter().take_while(|&&c| ws(c)).count();
    if n == 0 {
        return false;
    }
    let Some(r) = r[n..].strip_prefix(b"instvar") else { return false };
    // The names: up to the first ";", white space first, only white space
    // and name characters, at least one name character.
    let names = match r.iter().position(|&c| c == b';') {
        Some(k) => &r[..k],
        None => r,
    };
    names.first().is_some_and(|&c| ws(c))
        && names.iter().all(|&c| ws(c) || c.is_ascii_alphanumeric() || c == b'_')
        && names.iter().any(|&c| !ws(c))
}

/// What `ScriptKind` answers for the first word of a line opening braces.
fn script_kind(word: &[u8]) -> u8 {
    match word {
        b"if" | b"elseif" | b"else" | b"then" | b"while" | b"for" | b"foreach" | b"lmap" | b"catch" | b"try" | b"finally"
        | b"on" | b"trap" | b"proc" | b"time" | b"dict" | b"uplevel" | b"eval" => 1,
        b"switch" => 2,
        _ => 0,
    }
}

/// `line` with `\x` pairs removed (regsub -all {\\.} $line ""): a
/// backslash and the character after it.
fn without_escapes(line: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(line.len());
    let mut i = 0;
    while i < line.len() {
        if line[i] == b'\\' && i + 1 < line.len() {
            // (one character of Tcl's: a surrogate pair's half is one)
            let (u, n) = unit(&line[i + 1..]);
            let n = match u {
                Unit::Char(c) if c > 0xFFFF => 3,
                _ => n,
            };
            i += 1 + n;
        } else {
            v.push(line[i]);
            i += 1;
        }
    }
    v
}

/// `line` without its "..." spans (regsub -all {"[^"]*"} $line "").
fn without_quoted(line: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(line.len());
    let mut i = 0;
    while i < line.len() {
        if line[i] == b'"' {
            if let Some(k) = line[i + 1..].iter().position(|&c| c == b'"') {
                i += k + 2;
                continue;
            }
        }
        v.push(line[i]);
        i += 1;
    }
    v
}

/// The first word of a line (regexp {^[\s\}]*(\S*)}).
fn first_word(line: &[u8]) -> &[u8] {
    let space_at = |i: usize| {
        let (u, n) = unit(&line[i..]);
        let c = match u {
            Unit::Char(c) => c,
            Unit::Byte(b) => b as u32,
        };
        (tcl_re_space(c), n)
    };
    let mut i = 0;
    while i < line.len() {
        if line[i] == b'}' {
            i += 1;
            continue;
        }
        let (sp, n) = space_at(i);
        if !sp {
            break;
        }
        i += n;
    }
    let start = i;
    while i < line.len() {
        let (sp, n) = space_at(i);
        if sp {
            break;
        }
        i += n;
    }
    &line[start..i]
}

/// The rewritten form of one of the lines (RewriteLine in otcl.tcl).
fn rewrite_line(line: &[u8], out: &mut Vec<u8>) {
    let dollar = line.iter().position(|&c| c == b'$').unwrap_or(0);
    let (head, rest) = match line.iter().position(|&c| c == b';') {
        Some(k) => (&line[..k], &line[k..]),
        None => (line, &line[line.len()..]),
    };
    let names: Vec<&[u8]> = head.split(|&c| c == b' ' || c == b'\t').filter(|w| !w.is_empty()).skip(2).collect();
    out.extend_from_slice(&line[..dollar]);
    out.extend_from_slice(b"if {[::otcl::_::IVF $self");
    for n in &names {
        out.push(b' ');
        out.extend_from_slice(n);
    }
    out.extend_from_slice(b"]} {namespace upvar $::otcl::_::ns($self)");
    for n in &names {
        out.push(b' ');
        out.extend_from_slice(n);
        out.push(b' ');
        out.extend_from_slice(n);
    }
    out.push(b'}');
    out.extend_from_slice(rest);
}

/// Rewrite's result for `body`, None where it is `body` itself.
fn rewrite_body(body: &[u8]) -> Option<Vec<u8>> {
    let lines: Vec<&[u8]> = body.split(|&c| c == b'\n').collect();
    let contains = |l: &[u8], w: &[u8]| l.windows(w.len()).any(|x| x == w);
    let matched: Vec<bool> = lines.iter().map(|l| contains(l, b"instvar") && instvar_line(l)).collect();
    let last = matched.iter().rposition(|&m| m)?;
    let mut out = Vec::with_capacity(body.len() + 256);
    let mut quotes = 0usize;
    let mut stack: Vec<u8> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        if i > last {
            out.extend_from_slice(line);
            continue;
        }
        let ok = quotes % 2 == 0 && !stack.contains(&0) && !stack.contains(&2);
        let mut clean: Cow<'_, [u8]> = Cow::Borrowed(line);
        if clean.contains(&b'\\') {
            clean = Cow::Owned(without_escapes(&clean));
        }
        if clean.contains(&b'"') {
            quotes += clean.iter().filter(|&&c| c == b'"').count();
            clean = Cow::Owned(without_quoted(&clean));
        }
        let opens = clean.iter().filter(|&&c| c == b'{').count();
        let closes = clean.iter().filter(|&&c| c == b'}').count();
        if opens > closes {
            let kind = if stack.last() == Some(&2) { 1 } else { script_kind(first_word(&clean)) };
            stack.extend(std::iter::repeat_n(kind, opens - closes));
        } else if closes > opens {
            stack.truncate(stack.len().saturating_sub(closes - opens));
        }
        if ok && matched[i] {
            rewrite_line(line, &mut out);
        } else {
            out.extend_from_slice(line);
        }
    }
    Some(out)
}

/// `::dumbbell::be::rewrite body`: Rewrite (see above); the result is the
/// argument itself when nothing is rewritten.
unsafe extern "C" fn rewrite_cmd(cd: *mut c_void, interp: *mut Interp, objc: c_int, objv: *const *mut TclObj) -> c_int {
    guarded(
        || {
            fault(F_COMMAND);
            let st = &*(cd as *const Stubs);
            if objc != 2 {
                st.set_result(interp, "wrong # args: should be \"::dumbbell::be::rewrite body\"");
                return TCL_ERROR;
            }
            let body = *objv.add(1);
            match rewrite_body(st.bytes(body)) {
                Some(v) => (st.set_obj_result)(interp, st.new_bytes(&v)),
                None => (st.set_obj_result)(interp, body),
            }
            TCL_OK
        },
        |msg| {
            let st = &*(cd as *const Stubs);
            st.set_result(interp, &format!("internal error in Dumbbell's Tcl binding: {msg}"));
        },
    )
}

/// `source` while `Tcl_Init` runs (the command Tcl's own is renamed to,
/// `::tcl::dumbbell_source`, meanwhile): `source file` of an ASCII file is
/// evaluated command by command (`Tcl_EvalEx`), with `info script` the
/// file, as the ns-2 library is; `source` would compile all of init.tcl to
/// bytecode first, ~1 M instructions more for a file whose top-level
/// commands run once.  Anything else goes to Tcl's `source`.
unsafe extern "C" fn init_source_cmd(cd: *mut c_void, interp: *mut Interp, objc: c_int, objv: *const *mut TclObj) -> c_int {
    guarded(
        || {
            let st = &*(cd as *const Stubs);
            let path = if objc == 2 { Some(st.bytes(*objv.add(1)).to_vec()) } else { None };
            // (source reads up to a ^Z; an ASCII file reads the same in any
            // system encoding)
            let text = path.as_ref().and_then(|p| {
                use std::os::unix::ffi::OsStrExt;
                std::fs::read(std::ffi::OsStr::from_bytes(p)).ok().filter(|b| b.is_ascii() && !b.contains(&0x1A) && b.len() < c_int::MAX as usize)
            });
            let (Some(path), Some(text)) = (path, text) else {
                let mut words: Vec<*mut TclObj> = vec![st.new_bytes(b"::tcl::dumbbell_source")];
                words.extend((1..objc as usize).map(|i| *objv.add(i)));
                st.incr(words[0]);
                let code = (st.eval_objv)(interp, words.len() as c_int, words.as_ptr(), 0);
                st.decr(words[0]);
                return code;
            };
            let old = match st.call(interp, &["::info", "script"]) {
                Ok(o) => o,
                Err(_) => return TCL_ERROR,
            };
            let path = text_of_tcl(&path).into_owned();
            if st.call(interp, &["::info", "script", &path]).is_err() {
                return TCL_ERROR;
            }
            let code = (st.eval_ex)(interp, text.as_ptr() as *const c_char, text.len() as c_int, 0);
            if code != TCL_OK && code != TCL_RETURN {
                // Like `source`, put `info script` back on failure too (Tcl_Init
                // then tries init.tcl elsewhere), keeping the error as it was:
                // result, return options, errorInfo and errorCode (evaluating
                // a command resets them, hence the saved interpreter state).
                let state = (st.save_interp_state)(interp, code);
                let _ = st.call(interp, &["::info", "script", &old]);
                return (st.restore_interp_state)(interp, state);
            }
            if st.call(interp, &["::info", "script", &old]).is_err() {
                return TCL_ERROR;
            }
            (st.set_obj_result)(interp, st.new_bytes(b""));
            TCL_OK
        },
        |msg| {
            let st = &*(cd as *const Stubs);
            st.set_result(interp, &format!("internal error in Dumbbell's Tcl binding: {msg}"));
        },
    )
}

/// The Tcl interpreter of a Python object: our `TclInterp`, or tkinter's
/// (`_tkinter.tkapp`, the `tk` of `tkinter.Tcl()`).  Nothing else: an
/// address would be trusted blindly.
fn interp_ptr(obj: &Bound<'_, PyAny>) -> PyResult<*mut Interp> {
    if let Ok(t) = obj.cast::<TclInterp>() {
        return Ok(t.borrow().interp);
    }
    let py = obj.py();
    if let Ok(tkapp) = py.import("_tkinter").and_then(|m| m.getattr("TkappType")) {
        if obj.is_instance(&tkapp)? {
            let a: usize = obj.call_method0("interpaddr")?.extract()?;
            if a != 0 {
                return Ok(a as *mut Interp);
            }
        }
    }
    Err(PyTypeError::new_err(format!(
        "a Tcl interpreter is needed (dumbbell._engine.TclInterp, or tkinter's: tkinter.Tcl().tk), not {}",
        obj.get_type().name()?
    )))
}

/// The backend bound to one interpreter: Python keeps it to set the start-up
/// RNG binding and to collect a panic raised in a command.
#[pyclass(unsendable)]
pub struct TclBackend {
    state: Rc<RefCell<State>>,
}

#[pymethods]
impl TclBackend {
    /// Install the backend commands in `interp` (a `TclInterp`, or tkinter's
    /// interpreter: `tkinter.Tcl().tk`), bound to `engine`.  After an engine
    /// call that left output, warnings or Tcl to run, the commands call the
    /// Tcl command `::dumbbell::py::after_engine run_calls` (the runner's).
    /// Returns None if the interpreter is not a Tcl 8.6 one (the caller then
    /// keeps its Python commands).
    #[staticmethod]
    fn install(interp: &Bound<'_, PyAny>, engine: Py<Engine>) -> PyResult<Option<TclBackend>> {
        let interp = interp_ptr(interp)?;
        let Some(stubs) = (unsafe { Stubs::of(interp) }) else {
            return Ok(None);
        };
        let state = Rc::new(RefCell::new(State::default()));
        let backend = Rc::new(Backend {
            stubs,
            interp,
            engine,
            kinds: dumbbell_engine::ns2::objects::kinds().into_iter().collect(),
            kind_cache: Default::default(),
            defaults_cache: Default::default(),
            obj_kind: Default::default(),
            bound: Default::default(),
            state: state.clone(),
        });
        let cmds: [(&str, Func); 10] = [
            ("shadow", Func::Text(be_shadow)),
            ("get", Func::Text(be_get)),
            ("set", Func::Text(be_set)),
            ("cmd", Func::Text(be_cmd)),
            ("delete", Func::Text(be_delete)),
            ("adopt", Func::Text(be_adopt)),
            ("boundvars", Func::Text(be_boundvars)),
            ("kinds", Func::Text(be_kinds)),
            // (No Python versions: the Tcl layer uses these only if they exist.)
            ("oset", Func::Out(be_oset)),
            ("ecmd", Func::Out(be_ecmd)),
        ];
        // OTcl's instvar rewrite (no engine: its data is the stub table).
        let data = Box::into_raw(Box::new(stubs));
        unsafe {
            if (stubs.create_obj_command)(interp, c"::dumbbell::be::rewrite".as_ptr(), rewrite_cmd, data as *mut c_void, Some(delete_data::<Stubs, F_DELETE>)).is_null() {
                drop(Box::from_raw(data));
                return Err(TclError::new_err("can't create Tcl command \"::dumbbell::be::rewrite\""));
            }
        }
        for (name, f) in cmds {
            let full = format!("::dumbbell::be::{name}");
            let cname = CString::new(full.as_str()).expect("no NUL");
            let data = Box::into_raw(Box::new(CmdData { backend: backend.clone(), f }));
            unsafe {
                if (stubs.create_obj_command)(interp, cname.as_ptr(), trampoline, data as *mut c_void, Some(delete_data::<CmdData, F_DELETE>)).is_null() {
                    // Tcl refused (the interpreter is being deleted) and
                    // did not take the data.
                    drop(Box::from_raw(data));
                    return Err(TclError::new_err(format!("can't create Tcl command \"{full}\"")));
                }
            }
        }
        Ok(Some(TclBackend { state }))
    }

    /// Engine kind to create for `new RNG` (None: plain `RNG`).
    fn set_rng_bind(&self, kind: Option<String>) {
        self.state.borrow_mut().rng_bind = kind;
    }

    /// The engine panic raised in a command, if any (a PanicException).
    fn panic(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.state.borrow().panic.as_ref().map(|e| e.value(py).clone().into_any().unbind())
    }
}

// ---- an interpreter of our own ------------------------------------------------

pyo3::create_exception!(_engine, TclError, pyo3::exceptions::PyException, "An error raised by Tcl.");

// Lazy binding: of libtcl's ~800 PLT entries a run calls a fraction; binding
// them all at load (RTLD_NOW) cost ~0.5 M instructions.  The price: a libtcl
// missing a symbol one of its own functions needs (a broken or mismatched
// installation) fails when that function is first called, possibly in the
// middle of a run, instead of here at load.  The symbols Dumbbell itself
// uses are looked up here (`dlsym`, the stubs table) and checked.
const RTLD_LAZY: c_int = 1;

unsafe extern "C" {
    fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}

/// A Python exception raised by a Python command, waiting for the return to
/// Python.
struct Raised {
    /// Its number in the interpreter's sequence of raised exceptions.
    serial: u64,
    err: PyErr,
    /// The error message the command gave Tcl (Tcl's form).
    text: Vec<u8>,
    /// The command's name.
    cmd: String,
}

/// The exceptions raised by an interpreter's Python commands and not yet
/// settled, oldest first.
#[derive(Default)]
struct Pending {
    /// The serial of the next one.
    next: u64,
    list: Vec<Raised>,
}

impl Pending {
    fn push(&mut self, err: PyErr, text: Vec<u8>, cmd: String) {
        self.list.push(Raised { serial: self.next, err, text, cmd });
        self.next += 1;
    }

    /// Take those raised since `mark` (a `next` of earlier).
    fn take_since(&mut self, mark: u64) -> Vec<Raised> {
        let i = self.list.partition_point(|r| r.serial < mark);
        self.list.drain(i..).collect()
    }
}

type RaisedList = Rc<RefCell<Pending>>;

/// Report an exception that will not be raised, as Python reports one it
/// cannot raise (sys.unraisablehook; by default a traceback on stderr).
fn report(py: Python<'_>, r: Raised) {
    let ctx = PyString::new(py, &format!("Tcl command {} (its error did not reach Python)", r.cmd));
    r.err.write_unraisable(py, Some(ctx.as_any()));
}

/// A Tcl 8.6 interpreter loaded directly from the system's libtcl, for
/// `dumbbell run`: it spares loading tkinter (and with it Tk and X11, a
/// third of the start-up).  It offers the part of tkinter's `tkapp` that
/// the runner uses (strings in, strings out, as with `wantobjects = 0`),
/// and is set up as `tkinter.Tcl()` sets up its interpreter.  Tcl runs with
/// the GIL held, so Python commands are plain calls.
///
/// Strings are converted losslessly both ways (Tcl's NUL, its surrogate
/// pairs, and bytes that are not UTF-8, as Python's surrogateescape).
///
/// A Python exception raised in a Python command is a Tcl error with the
/// exception's message (or its type's name).  When the evaluation Python
/// started (`eval`, `call`, `getvar`, ...) ends with that error, the
/// exception itself is raised; an exception whose error Tcl did not pass on
/// (the script caught it, or failed with another error) is reported through
/// sys.unraisablehook, except an exception that is not an `Exception`
/// (KeyboardInterrupt, SystemExit, a panic), which is raised regardless.
/// Nothing is left for a later call.
#[pyclass(unsendable)]
pub struct TclInterp {
    stubs: Stubs,
    interp: *mut Interp,
    raised: RaisedList,
    /// Looks for Ctrl-C and the wall-clock limit while Tcl runs (`on_async`).
    watch: *mut AsyncWatch,
    /// Called as `hook(why, exit_code)` when a stop comes while
    /// `spill_write` writes (`set_stop_hook`).
    stop_hook: std::cell::RefCell<Option<Py<PyAny>>>,
}

/// What the interpreter's async handler needs: when a SIGINT has come or
/// the wall-clock limit has passed, the watchdog thread marks the handler
/// (Tcl_AsyncMark is safe from any thread; it is never marked otherwise, so
/// a run that is not stopped never meets it), and Tcl runs `on_async` at
/// its next command boundary, where the pending KeyboardInterrupt or the
/// limit ends the evaluation: a pure-Tcl loop of a script stops as an
/// engine run does (interrupt.rs).
struct AsyncWatch {
    stubs: Stubs,
    raised: RaisedList,
    handler: *mut c_void,
    token: u64,
    /// Shared with the watchdog's registry (interrupt.rs).
    limits: crate::interrupt::TclLimits,
    /// While set (`spill_write`), a mark is noted in `missed` instead of
    /// answered: the engine's output written in the middle of an event
    /// must not fail for a stop, or the bytes Tcl wrote would be kept for a
    /// second write and the rest of the event would pile up in memory.
    hold: std::cell::Cell<bool>,
    missed: std::cell::Cell<bool>,
}

/// `TclInterp::mid_event_probe`.
struct MidEventStop {
    interp: Py<TclInterp>,
    limits: crate::interrupt::TclLimits,
}

impl TclInterp {
    /// A stop that came in the middle of an event (a Ctrl-C, the
    /// wall-clock limit): call the stop hook as `hook(why, exit_code)`, if
    /// there is one and the stop is still due.
    fn stop_in_event(&self, py: Python<'_>) {
        let w = unsafe { &*self.watch };
        let hook = self.stop_hook.borrow().as_ref().map(|h| h.clone_ref(py));
        let Some(hook) = hook else { return };
        let why = if crate::interrupt::sigint_seen() {
            // Python's own handler has the signal pending too:
            // answer it here (its KeyboardInterrupt is this stop).
            let _ = py.check_signals();
            Some(("interrupted".to_string(), 130))
        } else {
            w.limits.get().check_wall().err().map(|e| (format!("stopped: {}", e.value(py)), 124))
        };
        if let Some((why, code)) = why {
            // (held: what the hook evaluates in Tcl must not meet the stop
            // it is answering)
            let held = w.hold.replace(true);
            let r = hook.call1(py, (why, code));
            w.hold.set(held);
            w.missed.set(false);
            if let Err(e) = r {
                e.write_unraisable(py, None);
            }
        }
    }

    /// The interpreter's stop in the middle of an engine event, for
    /// `Engine.set_stop_probe`: due when a Ctrl-C came or the wall-clock
    /// limit passed (checked without Python), answered by the stop hook.
    pub(crate) fn mid_event_probe(slf: &Bound<'_, Self>) -> Box<dyn dumbbell_engine::sim::MidEvent> {
        let limits = unsafe { &*slf.borrow().watch }.limits.clone();
        Box::new(MidEventStop { interp: slf.clone().unbind(), limits })
    }
}

impl dumbbell_engine::sim::MidEvent for MidEventStop {
    fn due(&mut self) -> bool {
        crate::interrupt::sigint_seen() || self.limits.get().deadline().is_some_and(|d| std::time::Instant::now() >= d)
    }

    fn stop(&mut self) {
        Python::attach(|py| self.interp.borrow(py).stop_in_event(py));
    }
}

/// The name `on_async`'s exceptions go by in the interpreter's list.
const ASYNC_CMD: &str = "(interrupt)";

unsafe extern "C" fn on_async(cd: *mut c_void, interp: *mut Interp, code: c_int) -> c_int {
    if interp.is_null() || cd.is_null() {
        return code;
    }
    let w = &*(cd as *const AsyncWatch);
    if w.hold.get() {
        w.missed.set(true);
        return code;
    }
    guarded(
        || {
            Python::attach(|py| {
                let _ = crate::interrupt::take_sigint();
                let e = match py.check_signals() {
                    Err(e) => e,
                    Ok(()) => match w.limits.get().check_wall() {
                        Err(e) => e,
                        Ok(()) => return code,
                    },
                };
                let text = if e.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py) {
                    "interrupted".to_string()
                } else {
                    e.value(py).str().map(|s| s.to_string()).unwrap_or_default()
                };
                w.stubs.set_result(interp, &text);
                if let Ok(mut r) = w.raised.try_borrow_mut() {
                    r.push(e, tcl_form(text.as_bytes()).into_owned(), ASYNC_CMD.into());
                }
                TCL_ERROR
            })
        },
        |_| {},
    )
}

/// A Python callable registered as a Tcl command.
struct PyCmd {
    stubs: Stubs,
    func: Py<PyAny>,
    raised: RaisedList,
    name: String,
}

unsafe extern "C" fn py_trampoline(cd: *mut c_void, interp: *mut Interp, objc: c_int, objv: *const *mut TclObj) -> c_int {
    guarded(
        || {
            fault(F_PY_COMMAND);
            let cmd = &*(cd as *const PyCmd);
            Python::attach(|py| cmd.run(py, interp, objc, objv))
        },
        // A panic in this binding (the command's Python exceptions are caught
        // as such): the command fails and a PanicException waits for the
        // return to Python.
        |msg| {
            let cmd = &*(cd as *const PyCmd);
            let text = format!("internal error in Dumbbell's Tcl binding: {msg}");
            cmd.stubs.set_result(interp, &text);
            if let Ok(mut r) = cmd.raised.try_borrow_mut() {
                // A lazy exception: made without the GIL.
                let err = PanicException::new_err((msg.to_string(),));
                r.push(err, tcl_form(text.as_bytes()).into_owned(), cmd.name.clone());
            }
        },
    )
}

impl PyCmd {
    unsafe fn run(&self, py: Python<'_>, interp: *mut Interp, objc: c_int, objv: *const *mut TclObj) -> c_int {
        let st = &self.stubs;
        let r = (|| -> PyResult<*mut TclObj> {
            let args = (1..objc.max(1) as usize).map(|i| py_text(py, st, *objv.add(i))).collect::<PyResult<Vec<_>>>()?;
            let v = self.func.call1(py, PyTuple::new(py, args)?)?;
            let v = v.bind(py);
            if v.is_none() {
                Ok(st.new_bytes(b""))
            } else {
                obj_of_py(st, v)
            }
        })();
        match r {
            Ok(o) => {
                (st.set_obj_result)(interp, o);
                TCL_OK
            }
            Err(e) => {
                self.fail(py, interp, e);
                TCL_ERROR
            }
        }
    }

    /// The command raised `e`: Tcl gets its message (its type's name if it
    /// has none), and `e` waits in the interpreter's list.
    unsafe fn fail(&self, py: Python<'_>, interp: *mut Interp, e: PyErr) {
        let bytes = |s: PyResult<Bound<'_, PyString>>| s.and_then(|s| tcl_bytes_of_str(&s).map(|b| b.into_owned())).ok();
        let mut text = bytes(e.value(py).str()).unwrap_or_default();
        if text.is_empty() {
            text = bytes(e.get_type(py).name()).unwrap_or_else(|| b"Python exception".to_vec());
        }
        (self.stubs.set_obj_result)(interp, self.stubs.new_bytes(&text));
        match self.raised.try_borrow_mut() {
            Ok(mut l) => l.push(e, text, self.name.clone()),
            Err(_) => report(py, Raised { serial: 0, err: e, text, cmd: self.name.clone() }),
        }
    }
}

impl TclInterp {
    /// Where the sequence of raised exceptions stands before an evaluation.
    fn mark(&self) -> u64 {
        self.raised.borrow().next
    }

    /// After an evaluation Python started at `mark`, which `failed` or not:
    /// of the exceptions raised meanwhile, the one to raise, if any; the
    /// others are reported.
    fn settle(&self, py: Python<'_>, mark: u64, failed: bool) -> PyResult<()> {
        if self.raised.borrow().next == mark {
            return Ok(());
        }
        let list = self.raised.borrow_mut().take_since(mark);
        // An interrupt or a panic (not an Exception) is raised whatever the
        // script did; else the exception whose message the failed
        // evaluation ends with.
        // A stop (Ctrl-C, a run limit, from the engine's run or from
        // `on_async`) too: a script that catches the error, or a library
        // procedure that words it its own way, must not turn it into the
        // script's error.
        let stop = |e: &PyErr| {
            e.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py) || e.is_instance_of::<crate::interrupt::RunLimitExceeded>(py)
        };
        let mut pick = list.iter().rposition(|r| !r.err.is_instance_of::<PyException>(py) || stop(&r.err));
        if pick.is_none() && failed {
            let result = unsafe { self.stubs.bytes((self.stubs.get_obj_result)(self.interp)) };
            pick = list.iter().rposition(|r| r.text == result);
        }
        // A stop seen twice, by the engine's run and by the interpreter's
        // async handler, is one stop.
        let stopping = pick.is_some_and(|i| stop(&list[i].err));
        let mut chosen = None;
        for (i, r) in list.into_iter().enumerate() {
            if Some(i) == pick {
                chosen = Some(r.err);
            } else if !(stopping && stop(&r.err)) {
                report(py, r);
            }
        }
        match chosen {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// A TclError with the interpreter's result.
    fn error(&self, py: Python<'_>) -> PyErr {
        match unsafe { py_text(py, &self.stubs, (self.stubs.get_obj_result)(self.interp)) } {
            Ok(s) => TclError::new_err((s.unbind(),)),
            Err(e) => e,
        }
    }

    /// The outcome of an evaluation Python started at `mark`: its result,
    /// the Python exception a command raised, or a TclError.
    fn outcome<'py>(&self, py: Python<'py>, mark: u64, code: c_int) -> PyResult<Bound<'py, PyString>> {
        self.settle(py, mark, code != TCL_OK)?;
        if code != TCL_OK {
            return Err(self.error(py));
        }
        unsafe { py_text(py, &self.stubs, (self.stubs.get_obj_result)(self.interp)) }
    }
}

/// A name for Tcl's C API (variables, commands).
fn c_name(name: &Bound<'_, PyString>) -> PyResult<CString> {
    // In Tcl's form a string has no zero byte.
    CString::new(tcl_bytes_of_str(name)?.into_owned()).map_err(|_| TclError::new_err("bad name"))
}

#[pymethods]
impl TclInterp {
    /// Load libtcl 8.6 and create an interpreter as tkinter would (None if
    /// the library cannot be loaded: the caller uses tkinter then).
    /// `program` is given to `Tcl_FindExecutable`.
    #[staticmethod]
    fn create(program: &str) -> Option<TclInterp> {
        unsafe {
            let mut h = std::ptr::null_mut();
            for name in [c"libtcl8.6.so", c"libtcl8.6.so.0"] {
                h = dlopen(name.as_ptr(), RTLD_LAZY);
                if !h.is_null() {
                    break;
                }
            }
            if h.is_null() {
                return None;
            }
            let find_exe = dlsym(h, c"Tcl_FindExecutable".as_ptr());
            let create = dlsym(h, c"Tcl_CreateInterp".as_ptr());
            if find_exe.is_null() || create.is_null() {
                return None;
            }
            let find_exe: unsafe extern "C" fn(*const c_char) = std::mem::transmute(find_exe);
            let create: unsafe extern "C" fn() -> *mut Interp = std::mem::transmute(create);
            let prog = CString::new(program).ok()?;
            find_exe(prog.as_ptr());
            let interp = create();
            let stubs = Stubs::of(interp)?;
            // What tkinter's Tkapp_New does for Tcl(): no Tk, not
            // interactive, argv0 the class name, no `exit` command.
            let set = |n: &std::ffi::CStr, v: &str| {
                (stubs.set_var2_ex)(interp, n.as_ptr(), std::ptr::null(), stubs.new_str(v), TCL_GLOBAL_ONLY);
            };
            (stubs.delete_command)(interp, c"exit".as_ptr());
            set(c"tcl_interactive", "0");
            set(c"argv0", "tk");
            set(c"_tkinter_skip_tk_init", "1");
            // Tcl_Init sources init.tcl through init_source_cmd.
            let data = Box::into_raw(Box::new(stubs));
            let mut own_source = (stubs.eval_ex)(interp, c"rename source ::tcl::dumbbell_source".as_ptr(), -1, TCL_EVAL_GLOBAL) == TCL_OK;
            if own_source
                && (stubs.create_obj_command)(interp, c"::source".as_ptr(), init_source_cmd, data as *mut c_void, Some(delete_data::<Stubs, F_DELETE>)).is_null()
            {
                (stubs.eval_ex)(interp, c"rename ::tcl::dumbbell_source ::source".as_ptr(), -1, TCL_EVAL_GLOBAL);
                own_source = false;
            }
            if !own_source {
                drop(Box::from_raw(data));
            }
            let ok = (stubs.init)(interp) == TCL_OK;
            if own_source {
                (stubs.delete_command)(interp, c"::source".as_ptr());
                if (stubs.eval_ex)(interp, c"rename ::tcl::dumbbell_source ::source".as_ptr(), -1, TCL_EVAL_GLOBAL) != TCL_OK {
                    (stubs.delete_interp)(interp);
                    return None;
                }
            }
            if !ok {
                (stubs.delete_interp)(interp);
                return None;
            }
            (stubs.set_panic_proc)(tcl_panic);
            format_guard_install(stubs, interp);
            let raised: RaisedList = Default::default();
            let watch = Box::into_raw(Box::new(AsyncWatch {
                stubs,
                raised: raised.clone(),
                handler: std::ptr::null_mut(),
                token: 0,
                limits: Default::default(),
                hold: Default::default(),
                missed: Default::default(),
            }));
            (*watch).handler = (stubs.async_create)(on_async, watch as *mut c_void);
            (*watch).token = crate::interrupt::watch_tcl((*watch).handler as usize, stubs.async_mark, (*watch).limits.clone());
            Some(TclInterp { stubs, interp, raised, watch, stop_hook: Default::default() })
        }
    }

    /// `dumbbell run --safe`: from now on the interpreter runs no program
    /// (`exec`, `open |...`), opens no socket, loads no library, creates
    /// no other interpreter, does not change directory; it reads files
    /// only under `read_roots` and writes, deletes or renames only under
    /// `write_root` (`sandbox_install` says how).
    fn sandbox(&self, read_roots: Vec<String>, write_root: String) -> PyResult<()> {
        unsafe { sandbox_install(self.stubs, self.interp, read_roots, write_root) }.map_err(TclError::new_err)
    }

    /// Limit the wall-clock time of what Tcl runs from now on (the engine's
    /// runs have their own: Engine.set_limits); None: no limit.
    #[pyo3(signature = (max_wall=None))]
    fn set_limits(&self, max_wall: Option<f64>) -> PyResult<()> {
        let l = crate::interrupt::Limits::new(None, max_wall)?;
        unsafe { (*self.watch).limits.set(l) };
        if max_wall.is_some() {
            crate::interrupt::ensure_watchdog();
        }
        Ok(())
    }

    fn eval<'py>(&self, py: Python<'py>, script: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyString>> {
        let b = tcl_bytes_of_str(script)?;
        let n = c_int::try_from(b.len()).map_err(|_| TclError::new_err("script too long"))?;
        let mark = self.mark();
        let code = unsafe { (self.stubs.eval_ex)(self.interp, b.as_ptr() as *const c_char, n, 0) };
        self.outcome(py, mark, code)
    }

    /// The engine's output spill (`Engine.set_spill(interp.spill_write,
    /// ...)`): `::puts -nonewline chan text`, the bytes read as Latin-1
    /// (as the runner writes what it drains), at global level.  Called by
    /// the engine in the middle of an event, with no Python code between
    /// (so no KeyboardInterrupt can come between the write and its
    /// answer).  A Ctrl-C or wall-clock limit that comes meanwhile does not
    /// fail the write: the stop hook (`set_stop_hook`) is called after it,
    /// or, without a hook, the stop stays pending for the end of the event.
    fn spill_write(&self, py: Python<'_>, chan: &Bound<'_, PyString>, data: &[u8]) -> PyResult<()> {
        // SAFETY: a valid buffer of data.len() bytes; a new reference or
        // NULL with the error set.
        let text = unsafe {
            Bound::from_owned_ptr_or_err(py, ffi::PyUnicode_DecodeLatin1(data.as_ptr() as *const c_char, data.len() as ffi::Py_ssize_t, std::ptr::null()))?
        };
        let words = PyTuple::new(py, [PyString::new(py, "::puts").into_any(), PyString::new(py, "-nonewline").into_any(), chan.clone().into_any(), text])?;
        let w = unsafe { &*self.watch };
        w.hold.set(true);
        let r = self.call(py, &words);
        w.hold.set(false);
        if w.missed.replace(false) {
            self.stop_in_event(py);
            // Whatever the hook did, the stop is still Tcl's to answer.
            unsafe { (self.stubs.async_mark)(w.handler) };
        }
        r.map(|_| ())
    }

    /// What `spill_write` calls, as `hook(why, exit_code)`, when a Ctrl-C
    /// (`why` "interrupted", 130) or the wall-clock limit ("stopped: ...",
    /// 124) comes while it writes: `dumbbell run` ends the process there,
    /// in the middle of the event (None: no hook).
    fn set_stop_hook(&self, hook: Option<Py<PyAny>>) {
        *self.stop_hook.borrow_mut() = hook;
    }

    /// A command from its words (strings, or lists for list arguments), at
    /// global level as tkinter's `call`.
    #[pyo3(signature = (*args))]
    fn call<'py>(&self, py: Python<'py>, args: &Bound<'py, PyTuple>) -> PyResult<Bound<'py, PyString>> {
        let st = &self.stubs;
        let mut objs: Vec<*mut TclObj> = Vec::with_capacity(args.len());
        let free = |objs: &[*mut TclObj]| {
            for &o in objs {
                unsafe { st.decr(o) };
            }
        };
        for a in args.iter() {
            match unsafe { obj_of_py(st, &a) } {
                Ok(o) => {
                    unsafe { st.incr(o) };
                    objs.push(o);
                }
                Err(e) => {
                    free(&objs);
                    return Err(e);
                }
            }
        }
        let mark = self.mark();
        let code = unsafe { (st.eval_objv)(self.interp, objs.len() as c_int, objs.as_ptr(), TCL_EVAL_DIRECT | TCL_EVAL_GLOBAL) };
        free(&objs);
        self.outcome(py, mark, code)
    }

    fn getvar<'py>(&self, py: Python<'py>, name: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyString>> {
        let n = c_name(name)?;
        let mark = self.mark();
        let o = unsafe { (self.stubs.get_var2_ex)(self.interp, n.as_ptr(), std::ptr::null(), TCL_LEAVE_ERR_MSG) };
        self.settle(py, mark, o.is_null())?;
        if o.is_null() {
            return Err(self.error(py));
        }
        unsafe { py_text(py, &self.stubs, o) }
    }

    fn setvar(&self, py: Python<'_>, name: &Bound<'_, PyString>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = c_name(name)?;
        let st = &self.stubs;
        let mark = self.mark();
        let ok = unsafe {
            let v = obj_of_py(st, value)?;
            st.incr(v);
            let r = (st.set_var2_ex)(self.interp, n.as_ptr(), std::ptr::null(), v, TCL_LEAVE_ERR_MSG);
            st.decr(v);
            !r.is_null()
        };
        self.settle(py, mark, !ok)?;
        if !ok {
            return Err(self.error(py));
        }
        Ok(())
    }

    fn splitlist<'py>(&self, py: Python<'py>, s: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyTuple>> {
        let st = &self.stubs;
        unsafe {
            let o = st.new_bytes(&tcl_bytes_of_str(s)?);
            st.incr(o);
            let mut n: c_int = 0;
            let mut v: *mut *mut TclObj = std::ptr::null_mut();
            let r = if (st.list_obj_get_elements)(self.interp, o, &mut n, &mut v) == TCL_OK {
                (0..n as usize).map(|i| py_text(py, st, *v.add(i))).collect::<PyResult<Vec<_>>>().and_then(|items| PyTuple::new(py, items))
            } else {
                Err(self.error(py))
            };
            st.decr(o);
            r
        }
    }

    fn createcommand(&self, py: Python<'_>, name: &Bound<'_, PyString>, func: Py<PyAny>) -> PyResult<()> {
        let n = c_name(name)?;
        let cmd = PyCmd { stubs: self.stubs, func, raised: self.raised.clone(), name: name.to_string_lossy().into_owned() };
        let data = Box::into_raw(Box::new(cmd));
        let mark = self.mark();
        // (Replacing a command deletes the old one, which may run traces.)
        let token = unsafe { (self.stubs.create_obj_command)(self.interp, n.as_ptr(), py_trampoline, data as *mut c_void, Some(delete_data::<PyCmd, F_PY_DELETE>)) };
        if token.is_null() {
            // Tcl refused (the interpreter is being deleted) and did not
            // take the data.
            drop(unsafe { Box::from_raw(data) });
            self.settle(py, mark, false)?;
            return Err(TclError::new_err(format!("can't create Tcl command \"{}\"", name.to_string_lossy())));
        }
        self.settle(py, mark, false)
    }

    fn deletecommand(&self, py: Python<'_>, name: &Bound<'_, PyString>) -> PyResult<()> {
        let n = c_name(name)?;
        let mark = self.mark();
        let code = unsafe { (self.stubs.delete_command)(self.interp, n.as_ptr()) };
        self.settle(py, mark, false)?;
        if code != TCL_OK {
            return Err(TclError::new_err("can't delete Tcl command"));
        }
        Ok(())
    }

    fn interpaddr(&self) -> usize {
        self.interp as usize
    }

    /// Report (sys.unraisablehook) the exceptions raised by Python commands
    /// that no evaluation has settled yet: for a process that ends in the
    /// middle of an evaluation (the runner's `exit`).
    fn report_pending(&self, py: Python<'_>) {
        let left = self.raised.borrow_mut().take_since(0);
        left.into_iter().for_each(|r| report(py, r));
    }
}

impl Drop for TclInterp {
    fn drop(&mut self) {
        unsafe {
            crate::interrupt::unwatch_tcl((*self.watch).token);
            (self.stubs.async_delete)((*self.watch).handler);
            drop(Box::from_raw(self.watch));
            (self.stubs.delete_interp)(self.interp)
        };
        // Exceptions raised by Python commands while the interpreter was
        // deleted (unset traces, say) reach no caller: report them.
        let left = self.raised.borrow_mut().take_since(0);
        if !left.is_empty() {
            let _ = Python::try_attach(|py| left.into_iter().for_each(|r| report(py, r)));
        }
    }
}

// ---- --safe ------------------------------------------------------------------------

/// What a guarded command may do.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Policy {
    /// Never (exec, socket, cd, load, unload, glob).
    Deny,
    /// `open`: no pipelines; reading under the read roots, writing under
    /// the write root.
    Open,
    /// `source`: the file under the read roots.
    Source,
    /// `interp`: only aliases within this interpreter.
    Interp,
    /// A `file` subcommand that reads a path (its first argument).
    FileRead,
    /// A `file` subcommand that changes the file system (every argument
    /// not an option must be under the write root).
    FileWrite,
}

struct Guard {
    stubs: Stubs,
    name: String,
    policy: Policy,
    orig: ObjCmdProc,
    orig_cd: *mut c_void,
    roots: std::rc::Rc<Roots>,
}

struct Roots {
    read: Vec<std::path::PathBuf>,
    write: std::path::PathBuf,
}

impl Roots {
    /// `path` (relative to the current directory) resolved: its longest
    /// existing ancestor canonical (symbolic links followed), the rest
    /// appended with `..` and `.` resolved by name.
    fn resolve(path: &str) -> Option<std::path::PathBuf> {
        use std::path::{Component, PathBuf};
        let p = std::path::Path::new(path);
        let abs = if p.is_absolute() { p.to_path_buf() } else { std::env::current_dir().ok()?.join(p) };
        let mut out = PathBuf::new();
        for c in abs.components() {
            match c {
                Component::ParentDir => {
                    out.pop();
                }
                Component::CurDir => {}
                c => out.push(c.as_os_str()),
            }
        }
        let mut base = out.clone();
        let mut rest = Vec::new();
        loop {
            if let Ok(real) = base.canonicalize() {
                let mut r = real;
                for x in rest.iter().rev() {
                    r.push(x);
                }
                return Some(r);
            }
            rest.push(base.file_name()?.to_os_string());
            if !base.pop() {
                return None;
            }
        }
    }

    fn readable(&self, path: &str) -> bool {
        Roots::resolve(path).is_some_and(|p| p.starts_with(&self.write) || self.read.iter().any(|r| p.starts_with(r)))
    }

    fn writable(&self, path: &str) -> bool {
        Roots::resolve(path).is_some_and(|p| p.starts_with(&self.write))
    }
}

impl Guard {
    /// Why the call `args` (the command's words after its name) is refused.
    fn refusal(&self, args: &[String]) -> Option<String> {
        let r = &self.roots;
        let what = |p: &str, how: &str| Some(format!("{}: {how} {p:?} is outside the directories --safe allows", self.name));
        match self.policy {
            Policy::Deny => Some(format!("{} is not allowed with --safe", self.name)),
            Policy::Open => {
                let path = args.first()?;
                if path.starts_with('|') {
                    return Some("open: command pipelines are not allowed with --safe".into());
                }
                let mode = args.get(1).map(String::as_str).unwrap_or("r");
                let writes = mode.contains(['w', 'a', '+']) || ["WRONLY", "RDWR", "CREAT", "APPEND", "TRUNC"].iter().any(|m| mode.contains(m));
                if writes && !r.writable(path) {
                    return what(path, "writing");
                }
                if !writes && !r.readable(path) {
                    return what(path, "reading");
                }
                None
            }
            Policy::Source => {
                let path = args.last()?;
                (!r.readable(path)).then(|| format!("source: {path:?} is outside the directories --safe allows"))?.into()
            }
            Policy::Interp => match args.first().map(String::as_str) {
                Some("alias" | "aliases" | "exists" | "target") => None,
                _ => Some("interp: only aliases in this interpreter are allowed with --safe".into()),
            },
            Policy::FileRead => {
                let path = args.iter().find(|a| !a.starts_with('-'))?;
                (!r.readable(path)).then(|| format!("{}: {path:?} is outside the directories --safe allows", self.name))
            }
            Policy::FileWrite => {
                let bad = args.iter().filter(|a| !a.starts_with('-')).find(|p| !r.writable(p))?;
                Some(format!("{}: {bad:?} is outside the directory --safe lets a script change", self.name))
            }
        }
    }
}

unsafe extern "C" fn guard_cmd(cd: *mut c_void, interp: *mut Interp, objc: c_int, objv: *const *mut TclObj) -> c_int {
    let g = &*(cd as *const Guard);
    guarded(
        || {
            let args: Vec<String> = (1..objc.max(1) as usize).map(|i| g.stubs.string(*objv.add(i))).collect();
            match g.refusal(&args) {
                Some(why) => {
                    g.stubs.set_result(interp, &why);
                    TCL_ERROR
                }
                None => (g.orig)(g.orig_cd, interp, objc, objv),
            }
        },
        |msg| g.stubs.set_result(interp, &format!("internal error in Dumbbell's sandbox: {msg}")),
    )
}

/// Put every command that reaches outside the simulation behind a `Guard`
/// (Tcl_SetCommandInfo replaces its procedure and keeps its deletion; the
/// guards live as long as the process, which ends with the run).  `file`
/// is an ensemble: its subcommands, `::tcl::file::*`, are guarded one by
/// one, so that calling them directly gets no further.  `env` reads and
/// writes fail.
unsafe fn sandbox_install(stubs: Stubs, interp: *mut Interp, read_roots: Vec<String>, write_root: String) -> Result<(), String> {
    let canon = |p: &str| std::path::Path::new(p).canonicalize().map_err(|e| format!("--safe: {p}: {e}"));
    let roots = std::rc::Rc::new(Roots { read: read_roots.iter().map(|p| canon(p)).collect::<Result<_, _>>()?, write: canon(&write_root)? });
    let eval = |script: &str| -> Result<String, String> {
        let c = CString::new(script).map_err(|e| e.to_string())?;
        let code = (stubs.eval_ex)(interp, c.as_ptr(), -1, TCL_EVAL_GLOBAL);
        let out = stubs.string((stubs.get_obj_result)(interp));
        if code == TCL_OK {
            Ok(out)
        } else {
            Err(out)
        }
    };
    let mut cmds: Vec<(String, Policy)> = ["exec", "socket", "cd", "load", "unload", "glob"].iter().map(|c| (c.to_string(), Policy::Deny)).collect();
    cmds.push(("open".into(), Policy::Open));
    cmds.push(("source".into(), Policy::Source));
    cmds.push(("interp".into(), Policy::Interp));
    const WRITE: [&str; 7] = ["delete", "rename", "copy", "mkdir", "link", "attributes", "tempfile"];
    const PURE: [&str; 13] =
        ["channels", "dirname", "tail", "join", "split", "extension", "rootname", "nativename", "pathtype", "separator", "volumes", "system", "normalize"];
    for full in eval("info commands ::tcl::file::*")?.split_whitespace() {
        let sub = full.rsplit("::").next().unwrap_or(full);
        if PURE.contains(&sub) {
            continue;
        }
        let policy = if sub == "tempfile" {
            Policy::Deny
        } else if WRITE.contains(&sub) {
            Policy::FileWrite
        } else {
            Policy::FileRead
        };
        cmds.push((full.to_string(), policy));
    }
    for (name, policy) in cmds {
        let c = CString::new(name.as_str()).map_err(|e| e.to_string())?;
        let mut info: CmdInfo = std::mem::zeroed();
        if (stubs.get_command_info)(interp, c.as_ptr(), &mut info) == 0 {
            continue; // not in this interpreter
        }
        let Some(orig) = info.obj_proc else { continue };
        let shown = name.strip_prefix("::tcl::file::").map(|s| format!("file {s}")).unwrap_or(name.clone());
        let g = Box::into_raw(Box::new(Guard { stubs, name: shown, policy, orig, orig_cd: info.obj_cd, roots: roots.clone() }));
        let mut new = info;
        new.obj_proc = Some(guard_cmd);
        new.obj_cd = g as *mut c_void;
        if (stubs.set_command_info)(interp, c.as_ptr(), &new) == 0 {
            drop(Box::from_raw(g));
            return Err(format!("--safe: cannot guard {name}"));
        }
    }
    eval("trace add variable ::env {read write unset array} {apply {args {error \"env is not available with --safe\"}}}")?;
    Ok(())
}

/// The widest `format` field Dumbbell lets Tcl build (characters).  Tcl
/// 8.6 pads a field one character at a time (`Tcl_AppendFormatToObj`
/// appends the pad character in a loop, about 10 ns each here), inside
/// one command, where neither `--max-wall` nor Ctrl-C reaches it:
/// `format "%99999999999s"` ran 13 s of CPU (39 s under load) before the
/// allocation failed, in ns-2 as here.  Ten million characters take 0.1 s.
const MAX_FORMAT_WIDTH: i64 = 10_000_000;

/// The field width of `format`'s specifications in `fmt` (with `args`, the
/// values after it, for `*` widths) that is above MAX_FORMAT_WIDTH, if
/// one is.  Follows Tcl's format grammar (`%[n$][-+ 0#][width|*][.prec|.*]
/// [size]conv`); what Tcl itself would refuse is left to Tcl.
fn format_too_wide(fmt: &[u8], arg: &mut dyn FnMut(usize) -> Option<i64>) -> Option<i64> {
    let mut i = 0;
    let mut next_arg = 0usize;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        if i < fmt.len() && fmt[i] == b'%' {
            i += 1;
            continue;
        }
        // an XPG position (`%2$...`): its `*` widths name no value here
        let mut j = i;
        while j < fmt.len() && fmt[j].is_ascii_digit() {
            j += 1;
        }
        let xpg = j > i && j < fmt.len() && fmt[j] == b'$';
        if xpg {
            i = j + 1;
        }
        while i < fmt.len() && matches!(fmt[i], b'-' | b'+' | b' ' | b'0' | b'#') {
            i += 1;
        }
        if i < fmt.len() && fmt[i] == b'*' {
            if !xpg {
                if let Some(w) = arg(next_arg) {
                    if w > MAX_FORMAT_WIDTH {
                        return Some(w);
                    }
                }
                next_arg += 1;
            }
            i += 1;
        } else {
            let start = i;
            while i < fmt.len() && fmt[i].is_ascii_digit() {
                i += 1;
            }
            if i > start {
                let digits = &fmt[start..i];
                let w = std::str::from_utf8(digits).ok().and_then(|d| d.parse::<i64>().ok()).unwrap_or(i64::MAX);
                if w > MAX_FORMAT_WIDTH {
                    return Some(w);
                }
            }
        }
        if i < fmt.len() && fmt[i] == b'.' {
            i += 1;
            if i < fmt.len() && fmt[i] == b'*' {
                next_arg += usize::from(!xpg);
                i += 1;
            } else {
                while i < fmt.len() && fmt[i].is_ascii_digit() {
                    i += 1;
                }
            }
        }
        // the size modifier and the conversion: one value
        while i < fmt.len() && matches!(fmt[i], b'h' | b'l' | b'L' | b'q' | b'j' | b'z' | b't') {
            i += 1;
        }
        i += 1;
        next_arg += usize::from(!xpg);
    }
    None
}

/// `format` behind a check of its field widths (MAX_FORMAT_WIDTH); the
/// command keeps its name and its own procedure does the rest, so its
/// results and messages are Tcl's.
struct FormatGuard {
    stubs: Stubs,
    orig: ObjCmdProc,
    orig_cd: *mut c_void,
}

unsafe extern "C" fn format_guard_cmd(cd: *mut c_void, interp: *mut Interp, objc: c_int, objv: *const *mut TclObj) -> c_int {
    let g = &*(cd as *const FormatGuard);
    if objc >= 2 {
        let fmt = g.stubs.bytes(*objv.add(1));
        // (the common case: no field wider than 7 digits and no `*`)
        if fmt.contains(&b'%') && (fmt.contains(&b'*') || fmt.windows(8).any(|w| w.iter().all(u8::is_ascii_digit))) {
            let mut arg = |k: usize| -> Option<i64> {
                let idx = 2 + k;
                if idx >= objc as usize {
                    return None;
                }
                std::str::from_utf8(g.stubs.bytes(*objv.add(idx))).ok()?.trim().parse::<i64>().ok()
            };
            if let Some(w) = format_too_wide(fmt, &mut arg) {
                g.stubs.set_result(
                    interp,
                    &format!(
                        "format: a field width of {w} characters is more than Dumbbell allows ({MAX_FORMAT_WIDTH}): \
                         Tcl pads a field one character at a time, in one command that neither --max-wall nor Ctrl-C can stop"
                    ),
                );
                return TCL_ERROR;
            }
        }
    }
    (g.orig)(g.orig_cd, interp, objc, objv)
}

/// Put `format` behind `FormatGuard`: a new command of the same name whose
/// procedure checks and then calls the old one's (the built-in has no
/// client data and no deletion of its own).  A new command, not
/// Tcl_SetCommandInfo on the old: Tcl's byte compiler folds a `format` of
/// literal words into its result when it compiles the script
/// (TclCompileFormatCmd), past any procedure; a command made by
/// Tcl_CreateObjCommand has no compile procedure, so every `format` runs
/// the check.  Nothing is done if the interpreter has no such command.
unsafe fn format_guard_install(stubs: Stubs, interp: *mut Interp) {
    let mut info: CmdInfo = std::mem::zeroed();
    if (stubs.get_command_info)(interp, c"::format".as_ptr(), &mut info) == 0 || !info.delete_proc.is_null() {
        return;
    }
    let Some(orig) = info.obj_proc else { return };
    let g = Box::into_raw(Box::new(FormatGuard { stubs, orig, orig_cd: info.obj_cd }));
    if (stubs.create_obj_command)(interp, c"::format".as_ptr(), format_guard_cmd, g as *mut c_void, None).is_null() {
        drop(Box::from_raw(g));
    }
}

/// What Tcl calls when it cannot go on, instead of its default (print and
/// `abort()`, a SIGABRT): almost always one command (`format` with a field
/// width of 2^31, `string repeat`, an `append` loop) that asked for more
/// memory than the process may have, which `--max-wall` cannot stop because
/// it is checked between commands.  A clear message and exit status 1, as
/// for any other error of the script.
unsafe extern "C" fn tcl_panic(format: *const c_char) -> ! {
    let what = if format.is_null() { Cow::Borrowed("") } else { std::ffi::CStr::from_ptr(format).to_string_lossy() };
    let what = what.trim_end();
    if what.starts_with("unable to alloc") || what.starts_with("unable to realloc") {
        eprintln!("error: out of memory: a Tcl command asked for more memory than this process may use (Tcl: {what:?})");
    } else {
        eprintln!("error: Tcl stopped: {what:?}");
    }
    std::process::exit(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    #[test]
    fn format_widths_past_the_limit_are_found() {
        let none = |_: usize| None;
        let wide = |f: &str, args: &[i64]| format_too_wide(f.as_bytes(), &mut |k| args.get(k).copied());
        assert_eq!(format_too_wide(b"%99999999999s %s", &mut { none }), Some(99999999999));
        assert_eq!(wide("%-10000001d", &[]), Some(10000001));
        assert_eq!(wide("%-10000000d", &[]), None, "the limit itself is allowed");
        assert_eq!(wide("%%99999999999s", &[]), None, "%% is a literal percent");
        assert_eq!(wide("%.99999999999f", &[]), None, "precision is not padded");
        assert_eq!(wide("%d %*s", &[1, 2_000_000_000]), Some(2_000_000_000), "* takes the value after the first conversion's");
        assert_eq!(wide("%*s %d", &[5, 2_000_000_000]), None, "the second value is %d's");
        assert_eq!(wide("%.*f %*s", &[3, 1, 50_000_000]), Some(50_000_000), ".* takes a value too");
        assert_eq!(wide("%1$*s", &[50_000_000]), None, "an XPG position's * names no value here");
        assert_eq!(wide("%2$99999999999s", &[]), Some(99999999999));
        assert_eq!(wide("%lld %08.3f %-20s|%5s", &[]), None);
        assert_eq!(wide("%0#+ 123456789012345678901234567890x", &[]), Some(i64::MAX));
        assert_eq!(wide("abc 12345678901 %", &[]), None, "digits outside a specification");
    }

    #[test]
    fn tcl_strings_read_as_tcl_reads_them() {
        let cases = [
            ("616263", "abc"),
            ("c3a9e282ac", "é€"),
            ("61c08062", "a\0b"),            // Tcl's NUL
            ("eda0bdedb880", "😀"),          // a surrogate pair (CESU-8)
            ("f09f9880", "😀"),
            ("eda0bd41", "\u{FFFD}A"),       // half a pair
            ("41e942", "AéB"),               // a stray byte: its Latin-1 character
            ("e282", "\u{e2}\u{82}"),        // a truncated sequence
            ("e08080", "\u{e0}\u{80}\u{80}"), // an overlong one
            ("c080c0", "\0\u{c0}"),
            ("f4908080", "\u{f4}\u{90}\u{80}\u{80}"), // beyond U+10FFFF
        ];
        for (h, want) in cases {
            assert_eq!(text_of_tcl(&hex(h)), want, "{h}");
        }
    }

    #[test]
    fn valid_utf8_is_read_without_a_copy() {
        assert!(matches!(text_of_tcl("plain é".as_bytes()), Cow::Borrowed(_)));
        assert!(matches!(tcl_form("plain é".as_bytes()), Cow::Borrowed(_)));
    }

    #[test]
    fn nul_is_written_as_tcl_writes_it() {
        assert_eq!(&*tcl_form(b"a\0b\0"), &hex("61c08062c080")[..]);
    }

    #[test]
    fn every_code_point_reads_back() {
        for c in (0..0x11_0000u32).step_by(7).chain([0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0x10000, 0x10FFFF]) {
            let mut v = Vec::new();
            push_code_point(&mut v, c);
            let (u, n) = unit(&v);
            assert_eq!(n, v.len(), "{c:#x}");
            assert!(matches!(u, Unit::Char(x) if x == c), "{c:#x}");
        }
    }
}
