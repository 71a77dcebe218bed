//! DSR's source-route header (dsr/hdr_sr.h) as a value beside the packet:
//! the source route and where the packet is on it, the route request,
//! reply and error options, and the flow-state options, with ns-2 2.35's
//! size rule (`hdr_sr::size`: 4 bytes of fixed part when any option is
//! there, 4 per address after the first, 8 for a request, 5 + 4 per
//! address for a reply, 16 per broken link, 4 for a flow header or a flow
//! time-out, rounded up to a multiple of 4); the trace's fields are
//! ns2/cmutrace.rs's `dsr_fields`.  Fixed arrays: a header is `Copy` and never allocates.
//!
//! ns-2 adds the header's size to the packet's each time it sends the
//! packet on with a route without taking the old one off first (a request
//! grows 32, 48, 68 bytes over its first hops: 20 + 12, + 16, + 20); the
//! agent, not this type, keeps that arithmetic.

use super::dsr_cache::MAX_SR_LEN;

/// How many broken links fit in one packet (`MAX_ROUTE_ERRORS`).
pub const MAX_ROUTE_ERRORS: usize = 3;

/// A broken link: `from` can no longer reach `to`; `tell` is the node to
/// tell (0 for a gratuitous error riding on a request).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkDown {
    pub tell: i32,
    pub from: i32,
    pub to: i32,
}

/// A flow-state error's entry (hdr_sr.h's `flow_error`): the flow a
/// forwarder did not know, for its source to hear of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowError {
    pub src: i32,
    pub dst: i32,
    pub id: u16,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SrHeader {
    pub valid: bool,
    /// Times the packet was salvaged.
    pub salvaged: i32,
    pub addrs: [i32; MAX_SR_LEN],
    pub num_addrs: usize,
    pub cur_addr: usize,
    pub request: bool,
    pub req_id: i32,
    /// How far the request may go (0: the ring-zero search).
    pub max_prop: i32,
    pub reply: bool,
    pub reply_addrs: [i32; MAX_SR_LEN],
    pub reply_len: usize,
    pub error: bool,
    pub errors: [LinkDown; MAX_ROUTE_ERRORS],
    pub num_errors: usize,
    pub flow_header: bool,
    pub flow_id: u16,
    pub hop_count: i32,
    pub flow_timeout: bool,
    pub timeout: u32,
    /// Unknown-flow and default-flow errors carried (counts only).
    pub flow_unknown: usize,
    pub default_unknown: usize,
    /// Their entries (unknown flows, unknown default flows).
    pub unknown_flows: [FlowError; MAX_ROUTE_ERRORS],
    pub unknown_defaults: [FlowError; MAX_ROUTE_ERRORS],
}

impl SrHeader {
    /// A fresh header (`init`): valid, every option off.  (Like ns-2's,
    /// it leaves the address arrays and error links as they were.)
    pub fn init(&mut self) {
        self.valid = true;
        self.salvaged = 0;
        self.num_addrs = 0;
        self.cur_addr = 0;
        self.request = false;
        self.reply = false;
        self.reply_len = 0;
        self.error = false;
        self.num_errors = 0;
        self.flow_timeout = false;
        self.flow_unknown = 0;
        self.default_unknown = 0;
        self.flow_header = false;
    }

    /// The source route.
    pub fn route(&self) -> &[i32] {
        &self.addrs[..self.num_addrs]
    }

    /// Sets the source route (`Path::fillSR`), the packet at `cur`.
    pub fn set_route(&mut self, route: &[i32], cur: usize) {
        assert!(route.len() <= MAX_SR_LEN, "a source route of {} hops", route.len());
        self.addrs[..route.len()].copy_from_slice(route);
        self.num_addrs = route.len();
        self.cur_addr = cur;
    }

    /// The header's size in bytes (`hdr_sr::size`).
    pub fn size(&self) -> u32 {
        let mut sz = 0usize;
        let unknown = self.flow_unknown > 0;
        let default_unknown = self.default_unknown > 0;
        if self.num_addrs > 0 || self.request || self.reply || self.error || self.flow_timeout || unknown || default_unknown {
            sz += 4;
        }
        if self.num_addrs > 0 {
            sz += 4 * (self.num_addrs - 1);
        }
        if self.reply {
            sz += 5 + 4 * self.reply_len;
        }
        if self.request {
            sz += 8;
        }
        if self.error {
            sz += 16 * self.num_errors;
        }
        if self.flow_timeout {
            sz += 4;
        }
        sz += 14 * self.flow_unknown + 12 * self.default_unknown;
        if self.flow_header {
            sz += 4;
        }
        ((sz + 3) & !3) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(route: &[i32]) -> SrHeader {
        let mut h = SrHeader::default();
        h.init();
        h.request = true;
        h.req_id = 2;
        h.set_route(route, 0);
        h
    }

    fn reply(route: &[i32]) -> SrHeader {
        let mut h = SrHeader::default();
        h.init();
        h.reply = true;
        h.reply_len = route.len();
        h.reply_addrs[..route.len()].copy_from_slice(route);
        h.set_route(&route.iter().rev().copied().collect::<Vec<_>>(), 0);
        h
    }

    #[test]
    fn sizes_as_ns2_traces_them() {
        // (packet sizes in tests/wireless/dsr's traces, less 20 bytes of
        // IP header; a request's grow by each hop's header)
        assert_eq!(request(&[0]).size(), 12);
        assert_eq!(request(&[0, 1]).size(), 16);
        assert_eq!(request(&[0, 1, 2]).size(), 20);
        // (so ns-2's forwarded request: 20 + 12, + 16 = 48, + 20 = 68)
        // replies from the destination of a chain of four and of three:
        // 60 and 52 bytes
        assert_eq!(reply(&[0, 1, 2, 3]).size(), 40);
        assert_eq!(reply(&[0, 1, 2]).size(), 32);
        // a flow's first data packet (the whole route, a flow header and a
        // time-out): 556 bytes for 512 over a chain of four, 552 of three
        let mut d = SrHeader::default();
        d.init();
        d.set_route(&[0, 1, 2, 3], 1);
        d.flow_header = true;
        d.flow_timeout = true;
        assert_eq!(d.size(), 24);
        d.set_route(&[0, 1, 2], 1);
        assert_eq!(d.size(), 20);
        // the flow's next packets on the default flow carry no header: 532
        let mut e = SrHeader::default();
        e.init();
        assert_eq!(e.size(), 0);
        // a flow header alone is 4; errors 16 each
        e.flow_header = true;
        assert_eq!(e.size(), 4);
        e.flow_header = false;
        e.error = true;
        e.num_errors = 2;
        assert_eq!(e.size(), 36);
    }

    #[test]
    fn trace_fields_show_the_reply_ends_and_the_last_error() {
        use crate::ns2::cmutrace::{dsr_fields, Dsr};
        let mut h = reply(&[0, 1, 2, 3]);
        h.req_id = 2;
        h.error = true;
        h.num_errors = 2;
        h.errors[0] = LinkDown { tell: 9, from: 8, to: 7 };
        h.errors[1] = LinkDown { tell: 0, from: 2, to: 3 };
        let f = dsr_fields(&h);
        assert_eq!(f, Dsr { addrs: 4, request: 0, seq: 2, reply: 1, reply_len: 4, reply_first: 0, reply_last: 3, error: 1, errors: 2, err_tell: 0, err_from: 2, err_to: 3 });
        let mut b = Vec::new();
        let ev = crate::ns2::cmutrace::Event {
            op: crate::ns2::cmutrace::Op::Send,
            time: 1.062979965,
            node: 3,
            next_hop: 2,
            x: 0.0,
            y: 0.0,
            z: 0.0,
            layer: "RTR",
            why: "---",
            uid: 10,
            ptype: "DSR",
            size: 20 + reply(&[0, 1, 2, 3]).size() as i32,
            mac: Default::default(),
            body: crate::ns2::cmutrace::Body::Ip(crate::ns2::cmutrace::IpFields { src: 3, sport: 255, dst: 0, dport: 255, flow: 0, ttl: 254 }, crate::ns2::cmutrace::Upper::Dsr(Dsr { error: 0, errors: 0, err_tell: 0, err_from: 0, err_to: 0, ..f })),
        };
        crate::ns2::cmutrace::push_line(&mut b, &ev, false);
        // (chain4_pri's reply line in ns-2's trace)
        assert_eq!(String::from_utf8(b).unwrap(), "s 1.062979965 _3_ RTR  --- 10 DSR 60 [0 0 0 0] ------- [3:255 0:255 254 2] 4 [0 2] [1 2 4 0->3] [0 0 0 0->0]\n");
    }
}
