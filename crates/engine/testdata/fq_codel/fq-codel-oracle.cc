// fq-codel-oracle.cc -- deterministic call log of ns-3.37's FqCoDelQueueDisc.
//
// The disc is driven directly, as a link would drive it: IPv4/UDP packets
// of several flows (each its own source port, size, rate, start and stop,
// ECN-capable or not) are enqueued at precomputed instants; a link of
// --rate dequeues a packet whenever it is idle and the disc is not empty,
// and is busy for the packet's transmission time (size * 8 / rate, whole
// nanoseconds, rounded up).  Nothing is random.
//
// One line per call and one per packet dropped or marked during it:
//   <t_ns> enqueue <size> seq= flow= hash= ect=   (the call; hash: ns-3's flow hash)
//   <t_ns> dequeue                                 (the call)
//   <t_ns> drop(overlimit) seq=     dropped from the fattest queue (enqueue)
//   <t_ns> drop(refused) seq=       refused by its flow queue's CoDel (enqueue)
//   <t_ns> drop(target) seq=        dropped by a flow queue's CoDel (dequeue)
//   <t_ns> mark(target) seq=        marked by a flow queue's CoDel
//   <t_ns> mark(ce_threshold) seq=
//   <t_ns> done [seq=] qpkts= qbytes= [q<i>=<pkts>,<bytes>,<deficit>,<status> ...]
// "done" ends each call: the packet a dequeue returned, the disc's backlog,
// and each flow queue (numbered in the order made) whose state changed since
// it was last printed (status 0 inactive, 1 new, 2 old).
// Lines starting with '#' are parameters and a summary.
// Build: see run.sh.

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/traffic-control-module.h"

#include <cinttypes>
#include <cstdio>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

using namespace ns3;

namespace
{

struct Flow
{
    uint64_t bps;
    int64_t startNs, stopNs;
    uint32_t size; // bytes at the disc: IPv4 (20) + UDP (8) + payload
    bool ect;
    uint16_t port;
};

Ptr<FqCoDelQueueDisc> g_q;
std::unordered_map<uint64_t, uint32_t> g_seq; // packet uid -> seq
uint32_t g_nextSeq = 0;
uint64_t g_rateBps = 0;
bool g_busy = false;
uint32_t g_perturbation = 0;
bool g_inEnqueue = false;
std::vector<std::string> g_lastQ;
uint64_t g_n[8] = {0}; // enq, deq calls, overlimit, refused, target drops, target marks, ce marks, returned

int64_t
NowNs()
{
    return Simulator::Now().GetNanoSeconds();
}

uint32_t
Seq(Ptr<const QueueDiscItem> item)
{
    auto it = g_seq.find(item->GetPacket()->GetUid());
    return it == g_seq.end() ? UINT32_MAX : it->second;
}

void
OnDbe(Ptr<const QueueDiscItem> item, const char*)
{
    g_n[3]++;
    std::printf("%" PRId64 " drop(refused) seq=%u\n", NowNs(), Seq(item));
}

void
OnDad(Ptr<const QueueDiscItem> item, const char* reason)
{
    std::string r(reason);
    bool target = r.find("Target exceeded") != std::string::npos;
    NS_ABORT_MSG_IF(!target && r.find("Overlimit") == std::string::npos, "unknown drop " << r);
    g_n[target ? 4 : 2]++;
    std::printf("%" PRId64 " drop(%s) seq=%u\n", NowNs(), target ? "target" : "overlimit", Seq(item));
}

void
OnMark(Ptr<const QueueDiscItem> item, const char* reason)
{
    std::string r(reason);
    bool ce = r.find("CE threshold") != std::string::npos;
    g_n[ce ? 6 : 5]++;
    std::printf("%" PRId64 " mark(%s) seq=%u\n", NowNs(), ce ? "ce_threshold" : "target", Seq(item));
}

void
Done(Ptr<QueueDiscItem> item)
{
    std::ostringstream o;
    o << NowNs() << " done";
    if (item)
    {
        o << " seq=" << Seq(item);
    }
    o << " qpkts=" << g_q->GetNPackets() << " qbytes=" << g_q->GetNBytes();
    for (std::size_t i = 0; i < g_q->GetNQueueDiscClasses(); i++)
    {
        Ptr<FqCoDelFlow> f = StaticCast<FqCoDelFlow>(g_q->GetQueueDiscClass(i));
        std::ostringstream s;
        s << f->GetQueueDisc()->GetNPackets() << "," << f->GetQueueDisc()->GetNBytes() << ","
          << f->GetDeficit() << "," << int(f->GetStatus());
        if (i >= g_lastQ.size())
        {
            g_lastQ.push_back("");
            // the new flow queue's CoDel reports to its parent's traces
        }
        if (g_lastQ[i] != s.str())
        {
            o << " q" << i << "=" << s.str();
            g_lastQ[i] = s.str();
        }
    }
    std::printf("%s\n", o.str().c_str());
}

void LinkFree();

void
DequeueOne()
{
    g_n[1]++;
    std::printf("%" PRId64 " dequeue\n", NowNs());
    Ptr<QueueDiscItem> item = g_q->Dequeue();
    Done(item);
    if (!item)
    {
        g_busy = false;
        return;
    }
    g_n[7]++;
    g_busy = true;
    uint64_t bits = uint64_t(item->GetSize()) * 8;
    int64_t txNs = (bits * 1000000000ULL + g_rateBps - 1) / g_rateBps;
    Simulator::Schedule(NanoSeconds(txNs), &LinkFree);
}

void
LinkFree()
{
    DequeueOne();
}

void
Send(Flow f)
{
    uint32_t seq = g_nextSeq++;
    Ptr<Packet> p = Create<Packet>(f.size - 28);
    UdpHeader udp;
    udp.SetSourcePort(f.port);
    udp.SetDestinationPort(9);
    p->AddHeader(udp);
    g_seq[p->GetUid()] = seq;
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.1.1.1"));
    ip.SetDestination(Ipv4Address("10.1.2.1"));
    ip.SetProtocol(17);
    ip.SetPayloadSize(f.size - 20);
    ip.SetEcn(f.ect ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT);
    Address dest;
    Ptr<Ipv4QueueDiscItem> item = Create<Ipv4QueueDiscItem>(p, dest, 0x0800, ip);
    g_n[0]++;
    std::printf("%" PRId64 " enqueue %u seq=%u flow=%u hash=%u ect=%d\n",
                NowNs(), item->GetSize(), seq, f.port, item->Hash(g_perturbation), f.ect ? 1 : 0);
    g_inEnqueue = true;
    g_q->Enqueue(item);
    g_inEnqueue = false;
    Done(nullptr);
    if (!g_busy)
    {
        DequeueOne();
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string rate = "10Mbps";
    std::string flows = "12Mbps:100ms:3s:1500:0,2Mbps:200ms:3s:500:0";
    std::string bursts = "";
    std::string maxSize = "10240p";
    std::string target = "5ms", interval = "100ms", ceThreshold = "";
    bool useEcn = true, setAssoc = false;
    uint32_t nFlows = 1024, quantum = 1500, batch = 64, setWays = 8;
    std::string tail = "1s";

    CommandLine cmd(__FILE__);
    cmd.AddValue("rate", "link rate", rate);
    cmd.AddValue("flows", "RATE:START:STOP:SIZE:ECT per flow, comma separated (port 1000+i)", flows);
    cmd.AddValue("bursts", "FLOW:AT:N, comma separated: N packets of flow FLOW at AT", bursts);
    cmd.AddValue("maxSize", "MaxSize", maxSize);
    cmd.AddValue("target", "Target", target);
    cmd.AddValue("interval", "Interval", interval);
    cmd.AddValue("ceThreshold", "CeThreshold (empty: off)", ceThreshold);
    cmd.AddValue("useEcn", "UseEcn", useEcn);
    cmd.AddValue("nFlows", "Flows", nFlows);
    cmd.AddValue("quantum", "quantum (SetQuantum)", quantum);
    cmd.AddValue("batch", "DropBatchSize", batch);
    cmd.AddValue("perturbation", "Perturbation", g_perturbation);
    cmd.AddValue("setAssoc", "EnableSetAssociativeHash", setAssoc);
    cmd.AddValue("setWays", "SetWays", setWays);
    cmd.AddValue("tail", "time after the last flow stops", tail);
    cmd.Parse(argc, argv);
    g_rateBps = DataRate(rate).GetBitRate();

    g_q = CreateObjectWithAttributes<FqCoDelQueueDisc>("MaxSize", StringValue(maxSize),
                                                       "Target", StringValue(target),
                                                       "Interval", StringValue(interval),
                                                       "UseEcn", BooleanValue(useEcn),
                                                       "Flows", UintegerValue(nFlows),
                                                       "DropBatchSize", UintegerValue(batch),
                                                       "Perturbation", UintegerValue(g_perturbation),
                                                       "EnableSetAssociativeHash", BooleanValue(setAssoc),
                                                       "SetWays", UintegerValue(setWays));
    if (!ceThreshold.empty())
    {
        g_q->SetAttribute("CeThreshold", StringValue(ceThreshold));
    }
    g_q->SetQuantum(quantum);
    g_q->Initialize();
    g_q->TraceConnectWithoutContext("DropBeforeEnqueue", MakeCallback(&OnDbe));
    g_q->TraceConnectWithoutContext("DropAfterDequeue", MakeCallback(&OnDad));
    g_q->TraceConnectWithoutContext("Mark", MakeCallback(&OnMark));

    std::vector<Flow> fl;
    {
        std::stringstream ss(flows);
        std::string tok;
        while (std::getline(ss, tok, ','))
        {
            std::vector<std::string> part;
            std::stringstream ps(tok);
            std::string x;
            while (std::getline(ps, x, ':'))
            {
                part.push_back(x);
            }
            NS_ABORT_MSG_IF(part.size() != 5, "bad flow '" << tok << "'");
            Flow f{DataRate(part[0]).GetBitRate(), Time(part[1]).GetNanoSeconds(),
                   Time(part[2]).GetNanoSeconds(), uint32_t(std::stoul(part[3])), part[4] == "1",
                   uint16_t(1000 + fl.size())};
            fl.push_back(f);
        }
    }
    int64_t end = 0;
    std::printf("# ns-3 3.37 FqCoDelQueueDisc oracle\n");
    std::printf("#! rate_bps=%" PRIu64 " maxSize=%s target=%s interval=%s ceThreshold=%s useEcn=%d "
                "nFlows=%u quantum=%u batch=%u perturbation=%u setAssoc=%d setWays=%u\n",
                g_rateBps, maxSize.c_str(), target.c_str(), interval.c_str(),
                ceThreshold.empty() ? "off" : ceThreshold.c_str(), useEcn, nFlows, quantum, batch,
                g_perturbation, setAssoc, setWays);
    for (std::size_t i = 0; i < fl.size(); i++)
    {
        const Flow& f = fl[i];
        uint64_t gap = (uint64_t(f.size) * 8 * 1000000000ULL + f.bps / 2) / f.bps;
        uint64_t n = 0;
        for (int64_t t = f.startNs; t < f.stopNs; t += gap, n++)
        {
            Simulator::Schedule(NanoSeconds(t), &Send, f);
        }
        end = std::max(end, f.stopNs);
        std::printf("# flow %zu port=%u bps=%" PRIu64 " from_ns=%" PRId64 " to_ns=%" PRId64
                    " size=%u ect=%d gap_ns=%" PRIu64 " packets=%" PRIu64 "\n",
                    i, f.port, f.bps, f.startNs, f.stopNs, f.size, f.ect, gap, n);
    }
    {
        std::stringstream ss(bursts);
        std::string tok;
        while (std::getline(ss, tok, ','))
        {
            auto a = tok.find(':'), b = tok.rfind(':');
            uint32_t i = std::stoul(tok.substr(0, a));
            int64_t at = Time(tok.substr(a + 1, b - a - 1)).GetNanoSeconds();
            uint32_t n = std::stoul(tok.substr(b + 1));
            for (uint32_t k = 0; k < n; k++)
            {
                Simulator::Schedule(NanoSeconds(at), &Send, fl.at(i));
            }
            std::printf("# burst flow=%u at_ns=%" PRId64 " n=%u\n", i, at, n);
        }
    }
    Simulator::Stop(NanoSeconds(end) + Time(tail));
    Simulator::Run();
    std::printf("# summary enqueue_calls=%" PRIu64 " dequeue_calls=%" PRIu64 " returned=%" PRIu64
                " overlimit=%" PRIu64 " refused=%" PRIu64 " target_drops=%" PRIu64
                " target_marks=%" PRIu64 " ce_marks=%" PRIu64 " flow_queues=%zu left=%u\n",
                g_n[0], g_n[1], g_n[7], g_n[2], g_n[3], g_n[4], g_n[5], g_n[6],
                g_q->GetNQueueDiscClasses(), g_q->GetNPackets());
    g_q = nullptr;
    Simulator::Destroy();
    return 0;
}
