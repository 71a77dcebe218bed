// codel-oracle.cc -- deterministic event log of ns-3.37's CoDelQueueDisc.
//
// Topology: n0 --(point-to-point, --rate, --delay)--> n1.
// A CoDelQueueDisc is the root queue disc of n0's device; the device's own
// transmit queue is DropTail with MaxSize 1p, so the backlog sits in the disc.
// n0 sends fixed-size UDP datagrams to n1 at fixed, precomputed instants
// (constant-rate phases, idle phases, instantaneous bursts); nothing is random.
//
// One line per event on stdout:
//   <time_ns> <event> <value> [key=value ...]
// Packet events (value = size in bytes as the disc sees it: IPv4 header + UDP
// header + payload):
//   enqueue                accepted into the disc           seq= ect=
//   drop(overlimit)        refused at enqueue (MaxSize)      seq= ect=
//   drop(target)           CoDel drop after dequeue         seq= sojourn_ns=
//   mark(target)           CoDel ECN mark instead of drop   seq= sojourn_ns=
//   mark(ce_threshold)     CE-threshold mark                 seq= sojourn_ns=
//   dequeue                left the disc for the device     seq= sojourn_ns=
// State events (value = new value of the traced variable; printed only when it
// changes, in the order ns-3 changes them):
//   dropping <0|1>   count <n>   lastcount <n>   drop_next <CoDel time units>
// Lines starting with '#' are parameters and a summary.
//
// Build: see run.sh (links libns3.37 from Debian's libns3-dev directly).

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <cinttypes>
#include <cstdio>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

using namespace ns3;

// codel-queue-disc.h declares this (global) class a friend of CoDelQueueDisc
// (for ns-3's own unit test). We use the friendship only to call the real,
// unmodified CoDelQueueDisc::DoDequeue non-virtually from a logging subclass.
class CoDelQueueDiscNewtonStepTest
{
  public:
    static Ptr<QueueDiscItem> RealDoDequeue(CoDelQueueDisc* q)
    {
        return q->CoDelQueueDisc::DoDequeue();
    }
};

namespace
{
void LogDoDequeueResult(Ptr<QueueDisc> q, Ptr<QueueDiscItem> item);
}

// Identical to CoDelQueueDisc except that every DoDequeue() call is logged
// with its result (a packet, or nothing when the disc is empty).
class CoDelOracleQueueDisc : public CoDelQueueDisc
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::CoDelOracleQueueDisc")
                                .SetParent<CoDelQueueDisc>()
                                .SetGroupName("TrafficControl")
                                .AddConstructor<CoDelOracleQueueDisc>();
        return tid;
    }

  private:
    Ptr<QueueDiscItem> DoDequeue() override
    {
        Ptr<QueueDiscItem> item = CoDelQueueDiscNewtonStepTest::RealDoDequeue(this);
        LogDoDequeueResult(this, item);
        return item;
    }
};

namespace
{

struct PktInfo
{
    uint32_t seq;
    bool ect;
};

std::unordered_map<uint64_t, PktInfo> g_pkts; // packet uid -> info
Ptr<Socket> g_txSocket;
uint32_t g_payload = 0;
uint32_t g_ectEvery = 0;
uint32_t g_nextSeq = 0;
uint64_t g_rxPackets = 0;
uint64_t g_nEnq = 0, g_nDeq = 0, g_nDropTarget = 0, g_nDropOver = 0, g_nMarkTarget = 0,
         g_nMarkCe = 0;
int64_t g_firstDropNs = -1, g_firstMarkNs = -1;
uint64_t g_nEmptyCalls = 0, g_nMacTx = 0;
Ptr<QueueDisc> g_q;

int64_t
NowNs()
{
    return Simulator::Now().GetNanoSeconds();
}

const PktInfo&
Info(Ptr<const Packet> p)
{
    static PktInfo unknown{UINT32_MAX, false};
    auto it = g_pkts.find(p->GetUid());
    return it == g_pkts.end() ? unknown : it->second;
}

std::string
ReasonToken(const char* reason)
{
    std::string r(reason);
    if (r == CoDelQueueDisc::OVERLIMIT_DROP)
    {
        return "overlimit";
    }
    if (r == CoDelQueueDisc::TARGET_EXCEEDED_DROP || r == CoDelQueueDisc::TARGET_EXCEEDED_MARK)
    {
        return "target";
    }
    if (r == CoDelQueueDisc::CE_THRESHOLD_EXCEEDED_MARK)
    {
        return "ce_threshold";
    }
    for (auto& c : r)
    {
        if (c == ' ')
        {
            c = '_';
        }
    }
    return r;
}

void
SendOne()
{
    uint32_t seq = g_nextSeq++;
    bool ect = g_ectEvery > 0 && (seq % g_ectEvery) == 0;
    g_txSocket->SetIpTos(ect ? 0x02 : 0x00); // ECT(0) or Not-ECT
    Ptr<Packet> p = Create<Packet>(g_payload);
    g_pkts[p->GetUid()] = PktInfo{seq, ect};
    g_txSocket->Send(p);
}

// ---- queue disc traces ----
void
OnEnqueue(Ptr<const QueueDiscItem> item)
{
    const PktInfo& i = Info(item->GetPacket());
    g_nEnq++;
    std::printf("%" PRId64 " enqueue %u seq=%u ect=%d qbytes=%u\n",
                NowNs(),
                item->GetSize(),
                i.seq,
                i.ect ? 1 : 0,
                g_q->GetNBytes());
}

void
OnDropBeforeEnqueue(Ptr<const QueueDiscItem> item, const char* reason)
{
    const PktInfo& i = Info(item->GetPacket());
    g_nDropOver++;
    std::printf("%" PRId64 " drop(%s) %u seq=%u ect=%d qbytes=%u\n",
                NowNs(),
                ReasonToken(reason).c_str(),
                item->GetSize(),
                i.seq,
                i.ect ? 1 : 0,
                g_q->GetNBytes());
}

void
OnDropAfterDequeue(Ptr<const QueueDiscItem> item, const char* reason)
{
    const PktInfo& i = Info(item->GetPacket());
    g_nDropTarget++;
    if (g_firstDropNs < 0)
    {
        g_firstDropNs = NowNs();
    }
    std::printf("%" PRId64 " drop(%s) %u seq=%u sojourn_ns=%" PRId64 " qbytes=%u\n",
                NowNs(),
                ReasonToken(reason).c_str(),
                item->GetSize(),
                i.seq,
                (Simulator::Now() - item->GetTimeStamp()).GetNanoSeconds(),
                g_q->GetNBytes());
}

void
OnMark(Ptr<const QueueDiscItem> item, const char* reason)
{
    const PktInfo& i = Info(item->GetPacket());
    std::string tok = ReasonToken(reason);
    if (tok == "target")
    {
        g_nMarkTarget++;
    }
    else
    {
        g_nMarkCe++;
    }
    if (g_firstMarkNs < 0)
    {
        g_firstMarkNs = NowNs();
    }
    std::printf("%" PRId64 " mark(%s) %u seq=%u sojourn_ns=%" PRId64 " qbytes=%u\n",
                NowNs(),
                tok.c_str(),
                item->GetSize(),
                i.seq,
                (Simulator::Now() - item->GetTimeStamp()).GetNanoSeconds(),
                g_q->GetNBytes());
}

void
LogDoDequeueResult(Ptr<QueueDisc> q, Ptr<QueueDiscItem> item)
{
    if (!item)
    {
        g_nEmptyCalls++;
        std::printf("%" PRId64 " dequeue_empty 0 qbytes=%u\n", NowNs(), q->GetNBytes());
        return;
    }
    const PktInfo& i = Info(item->GetPacket());
    g_nDeq++;
    std::printf("%" PRId64 " dequeue %u seq=%u sojourn_ns=%" PRId64 " qbytes=%u\n",
                NowNs(),
                item->GetSize(),
                i.seq,
                (Simulator::Now() - item->GetTimeStamp()).GetNanoSeconds(),
                q->GetNBytes());
}

// Cross-check: the device must see exactly the packets DoDequeue returned.
void
OnMacTx(Ptr<const Packet>)
{
    g_nMacTx++;
}

// ---- CoDel state traces ----
void
OnDropState(bool, bool v)
{
    std::printf("%" PRId64 " dropping %d qbytes=%u\n", NowNs(), v ? 1 : 0, g_q->GetNBytes());
}

void
OnCount(uint32_t, uint32_t v)
{
    std::printf("%" PRId64 " count %u\n", NowNs(), v);
}

void
OnLastCount(uint32_t, uint32_t v)
{
    std::printf("%" PRId64 " lastcount %u\n", NowNs(), v);
}

void
OnDropNext(uint32_t, uint32_t v)
{
    std::printf("%" PRId64 " drop_next %u\n", NowNs(), v);
}

void
OnRx(Ptr<Socket> s)
{
    Ptr<Packet> p;
    while ((p = s->Recv()))
    {
        g_rxPackets++;
    }
}

struct Phase
{
    bool burst;
    uint64_t bps;   // 0 = idle
    int64_t durNs;  // for rate phases
    uint32_t count; // for bursts
};

std::vector<Phase>
ParsePhases(const std::string& spec)
{
    std::vector<Phase> out;
    std::stringstream ss(spec);
    std::string tok;
    while (std::getline(ss, tok, ','))
    {
        auto c = tok.find(':');
        NS_ABORT_MSG_IF(c == std::string::npos, "bad phase '" << tok << "'");
        std::string a = tok.substr(0, c);
        std::string b = tok.substr(c + 1);
        Phase ph{false, 0, 0, 0};
        if (a == "burst")
        {
            ph.burst = true;
            ph.count = std::stoul(b);
        }
        else
        {
            ph.bps = DataRate(a).GetBitRate();
            ph.durNs = Time(b).GetNanoSeconds();
        }
        out.push_back(ph);
    }
    return out;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string rate = "10Mbps";
    std::string delay = "5ms";
    uint32_t pktSize = 1500; // bytes at the disc: IPv4 (20) + UDP (8) + payload
    std::string phases = "12Mbps:2s,8Mbps:1.5s,burst:60,9Mbps:1s,0bps:2.5s,11Mbps:1s";
    std::string target = "5ms";
    std::string interval = "100ms";
    bool useEcn = false;
    uint32_t ectEvery = 0;
    std::string ceThreshold = "";
    uint32_t minBytes = 1500;
    std::string maxSize = "1500000B";
    std::string tail = "3s";
    std::string start = "100ms";

    CommandLine cmd(__FILE__);
    cmd.AddValue("rate", "link DataRate", rate);
    cmd.AddValue("delay", "link propagation delay", delay);
    cmd.AddValue("pktSize", "packet size seen by the disc (IPv4+UDP+payload), bytes", pktSize);
    cmd.AddValue("phases",
                 "comma list of RATE:DURATION (constant-rate phase, RATE 0bps = idle) "
                 "or burst:N (N packets at one instant)",
                 phases);
    cmd.AddValue("target", "CoDel Target", target);
    cmd.AddValue("interval", "CoDel Interval", interval);
    cmd.AddValue("useEcn", "CoDel UseEcn", useEcn);
    cmd.AddValue("ectEvery", "0 = no ECT packets; N = packets with seq%N==0 are ECT(0)", ectEvery);
    cmd.AddValue("ceThreshold", "CoDel CeThreshold (empty = attribute default, disabled)",
                 ceThreshold);
    cmd.AddValue("minBytes", "CoDel MinBytes", minBytes);
    cmd.AddValue("maxSize", "CoDel MaxSize (e.g. 1500000B or 200p)", maxSize);
    cmd.AddValue("start", "time of the first phase", start);
    cmd.AddValue("tail", "simulated time after the last phase", tail);
    cmd.Parse(argc, argv);

    NS_ABORT_MSG_IF(pktSize < 28, "pktSize must be >= 28");
    g_payload = pktSize - 28;
    g_ectEvery = ectEvery;

    NodeContainer nodes;
    nodes.Create(2);

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(rate));
    p2p.SetChannelAttribute("Delay", StringValue(delay));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));
    NetDeviceContainer devs = p2p.Install(nodes);

    InternetStackHelper stack;
    stack.Install(nodes);

    TrafficControlHelper tch;
    CoDelOracleQueueDisc::GetTypeId(); // register the logging subclass
    tch.SetRootQueueDisc("ns3::CoDelOracleQueueDisc",
                         "Target",
                         StringValue(target),
                         "Interval",
                         StringValue(interval),
                         "UseEcn",
                         BooleanValue(useEcn),
                         "MinBytes",
                         UintegerValue(minBytes),
                         "MaxSize",
                         StringValue(maxSize));
    QueueDiscContainer qdiscs = tch.Install(devs.Get(0)); // before address assignment
    Ptr<QueueDisc> q = qdiscs.Get(0);
    g_q = q;
    if (!ceThreshold.empty())
    {
        q->SetAttribute("CeThreshold", StringValue(ceThreshold));
    }

    Ipv4AddressHelper addr;
    addr.SetBase("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devs);

    // receiver
    Ptr<Socket> rx = Socket::CreateSocket(nodes.Get(1), UdpSocketFactory::GetTypeId());
    rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
    rx->SetRecvCallback(MakeCallback(&OnRx));

    // sender
    g_txSocket = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
    g_txSocket->Bind();
    g_txSocket->Connect(InetSocketAddress(ifs.GetAddress(1), 9));

    // traces
    q->TraceConnectWithoutContext("Enqueue", MakeCallback(&OnEnqueue));
    q->TraceConnectWithoutContext("DropBeforeEnqueue", MakeCallback(&OnDropBeforeEnqueue));
    q->TraceConnectWithoutContext("DropAfterDequeue", MakeCallback(&OnDropAfterDequeue));
    q->TraceConnectWithoutContext("Mark", MakeCallback(&OnMark));
    q->TraceConnectWithoutContext("DropState", MakeCallback(&OnDropState));
    q->TraceConnectWithoutContext("Count", MakeCallback(&OnCount));
    q->TraceConnectWithoutContext("LastCount", MakeCallback(&OnLastCount));
    q->TraceConnectWithoutContext("DropNext", MakeCallback(&OnDropNext));
    devs.Get(0)->TraceConnectWithoutContext("MacTx", MakeCallback(&OnMacTx));

    // schedule the arrivals
    std::vector<Phase> ph = ParsePhases(phases);
    int64_t t = Time(start).GetNanoSeconds();
    uint64_t nSched = 0;
    std::ostringstream sched;
    for (const auto& p : ph)
    {
        if (p.burst)
        {
            for (uint32_t k = 0; k < p.count; ++k)
            {
                Simulator::Schedule(NanoSeconds(t), &SendOne);
            }
            sched << "# phase burst n=" << p.count << " at_ns=" << t << "\n";
            nSched += p.count;
            continue;
        }
        if (p.bps == 0)
        {
            sched << "# phase idle from_ns=" << t << " to_ns=" << t + p.durNs << "\n";
            t += p.durNs;
            continue;
        }
        // integer gap in ns, rounded to nearest
        uint64_t bits = uint64_t(pktSize) * 8;
        uint64_t gap = (bits * 1000000000ULL + p.bps / 2) / p.bps;
        uint64_t n = 0;
        for (int64_t s = t; s < t + p.durNs; s += gap, ++n)
        {
            Simulator::Schedule(NanoSeconds(s), &SendOne);
        }
        sched << "# phase rate_bps=" << p.bps << " from_ns=" << t << " to_ns=" << t + p.durNs
              << " gap_ns=" << gap << " packets=" << n << "\n";
        nSched += n;
        t += p.durNs;
    }
    int64_t endNs = t + Time(tail).GetNanoSeconds();

    DataRate linkRate(rate);
    std::printf("# ns-3 %s CoDelQueueDisc oracle\n", "3.37");
    std::printf("# rate=%s delay=%s pktSize=%u payload=%u phases=%s\n",
                rate.c_str(),
                delay.c_str(),
                pktSize,
                g_payload,
                phases.c_str());
    std::printf("# target=%s interval=%s useEcn=%d ectEvery=%u ceThreshold=%s minBytes=%u "
                "maxSize=%s start=%s tail=%s\n",
                target.c_str(),
                interval.c_str(),
                useEcn ? 1 : 0,
                ectEvery,
                ceThreshold.empty() ? "default(disabled)" : ceThreshold.c_str(),
                minBytes,
                maxSize.c_str(),
                start.c_str(),
                tail.c_str());
    std::printf("# codel_units: target=%" PRId64 " interval=%" PRId64 " (ns>>10)\n",
                Time(target).GetNanoSeconds() >> 10,
                Time(interval).GetNanoSeconds() >> 10);
    std::printf("# link tx_time_ns(pktSize+2 PPP)=%" PRId64 "\n",
                linkRate.CalculateBytesTxTime(pktSize + 2).GetNanoSeconds());
    std::printf("%s", sched.str().c_str());
    std::printf("# scheduled_packets=%" PRIu64 " end_ns=%" PRId64 "\n", nSched, endNs);

    Simulator::Stop(NanoSeconds(endNs));
    Simulator::Run();

    const QueueDisc::Stats& st = q->GetStats();
    std::printf("# summary sent=%u enqueued=%" PRIu64 " dequeued=%" PRIu64
                " drop_overlimit=%" PRIu64 " drop_target=%" PRIu64 " mark_target=%" PRIu64
                " mark_ce=%" PRIu64 " left_in_disc=%u received=%" PRIu64
                " empty_dequeue_calls=%" PRIu64 " device_tx=%" PRIu64 "\n",
                g_nextSeq,
                g_nEnq,
                g_nDeq,
                g_nDropOver,
                g_nDropTarget,
                g_nMarkTarget,
                g_nMarkCe,
                q->GetNPackets(),
                g_rxPackets,
                g_nEmptyCalls,
                g_nMacTx);
    std::printf("# first_drop_ns=%" PRId64 " first_mark_ns=%" PRId64 "\n",
                g_firstDropNs,
                g_firstMarkNs);
    std::printf("# ns3_stats received=%u dropped=%u (before_enq=%u after_deq=%u) marked=%u "
                "dequeued_incl_dropped=%u\n",
                st.nTotalReceivedPackets,
                st.nTotalDroppedPackets,
                st.nTotalDroppedPacketsBeforeEnqueue,
                st.nTotalDroppedPacketsAfterDequeue,
                st.nTotalMarkedPackets,
                st.nTotalDequeuedPackets);
    g_q = nullptr;
    g_txSocket = nullptr;
    Simulator::Destroy();
    return 0;
}
