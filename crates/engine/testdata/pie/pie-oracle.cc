// pie-oracle.cc -- deterministic event log of ns-3.37's PieQueueDisc.
//
// Topology: n0 --(point-to-point, --rate, --delay)--> n1.  A PieQueueDisc is
// the root queue disc of n0's device; the device's own transmit queue holds
// one packet, so the backlog sits in the disc.  n0 sends UDP datagrams to n1
// at precomputed instants (constant-rate phases, idle phases, bursts; packet
// sizes cycle through --sizes).  The only randomness is PIE's own uniform
// draw, and every draw is logged.
//
// One line per event on stdout:  <time_ns> <event> <value> [key=value ...]
//   draw <u>                 PIE's uniform draw in DropEarly (%.17g)
//   enqueue <size>           DoEnqueue accepted the packet    seq= ect= marked= qbytes= qpkts= + state
//   drop(forced|unforced) <size>  DoEnqueue refused it         (the same keys)
// (marked=1: an ECN mark instead of an early drop)
//   dequeue <size>           DoDequeue returned a packet           seq= sojourn_ns= qbytes= + state
//   dequeue_empty 0          DoDequeue found the disc empty
//   update <prob>            after CalculateP                      + state
// "state" is PIE's variables after the call, each printed only when it
// changed since the last line (all on the first line): qdelay_ns=
// qdelay_old_ns= burst_ns= burst_state= (0 none, 1 in burst, 2 protecting)
// burst_reset= accu= avg_dq_rate= dq_count= in_meas= active= (doubles %.17g).
// Lines starting with '#' are parameters and a summary.
//
// PieQueueDisc befriends the global class PieQueueDiscTestCase (ns-3's own
// test); the oracle uses that friendship only to read PIE's state, to call
// the real, unmodified DoDequeue and CalculateP, and to interpose a logging
// wrapper on the uniform random variable (it delegates to the original, so
// the stream is unchanged).  Build: see run.sh.

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

// Delegates every draw to the disc's own variable and prints it.
class LoggedUniform : public UniformRandomVariable
{
  public:
    Ptr<UniformRandomVariable> m_inner;
    double GetValue() override
    {
        double u = m_inner->GetValue();
        std::printf("%" PRId64 " draw %.17g\n", Simulator::Now().GetNanoSeconds(), u);
        return u;
    }
};

class PieQueueDiscTestCase
{
  public:
    static Ptr<QueueDiscItem> RealDoDequeue(PieQueueDisc* q)
    {
        return q->PieQueueDisc::DoDequeue();
    }

    static bool RealDoEnqueue(PieQueueDisc* q, Ptr<QueueDiscItem> item)
    {
        return q->PieQueueDisc::DoEnqueue(item);
    }

    static void LogDraws(PieQueueDisc* q)
    {
        Ptr<LoggedUniform> l = CreateObject<LoggedUniform>();
        l->m_inner = q->m_uv;
        q->m_uv = l;
    }

    // PIE's state as key=value pairs, only those that changed since the
    // last line printed (all of them the first time), each after a space.
    static std::string State(PieQueueDisc* q)
    {
        char v[10][64];
        std::snprintf(v[0], 64, "%" PRId64, q->m_qDelay.GetNanoSeconds());
        std::snprintf(v[1], 64, "%" PRId64, q->m_qDelayOld.GetNanoSeconds());
        std::snprintf(v[2], 64, "%" PRId64, q->m_burstAllowance.GetNanoSeconds());
        std::snprintf(v[3], 64, "%d", int(q->m_burstState));
        std::snprintf(v[4], 64, "%u", q->m_burstState == PieQueueDisc::IN_BURST ? q->m_burstReset : 0u);
        std::snprintf(v[5], 64, "%.17g", q->m_accuProb);
        std::snprintf(v[6], 64, "%.17g", q->m_avgDqRate);
        std::snprintf(v[7], 64, "%" PRIu64, q->m_dqCount);
        std::snprintf(v[8], 64, "%d", q->m_inMeasurement ? 1 : 0);
        std::snprintf(v[9], 64, "%d", q->m_active ? 1 : 0);
        static const char* keys[10] = {"qdelay_ns", "qdelay_old_ns", "burst_ns", "burst_state",
                                       "burst_reset", "accu", "avg_dq_rate", "dq_count",
                                       "in_meas", "active"};
        static std::string last[10];
        static bool first = true;
        std::string out;
        for (int i = 0; i < 10; i++)
        {
            if (first || last[i] != v[i])
            {
                out += std::string(" ") + keys[i] + "=" + v[i];
                last[i] = v[i];
            }
        }
        first = false;
        return out;
    }

    static double Prob(PieQueueDisc* q)
    {
        return q->m_dropProb;
    }

    // Run the real CalculateP, log, and put this wrapper in place of the
    // next update CalculateP scheduled for itself (same time, and scheduled
    // right after it, so the order among events is unchanged).
    static void Update(PieQueueDisc* q)
    {
        q->CalculateP();
        std::printf("%" PRId64 " update %.17g%s\n",
                    Simulator::Now().GetNanoSeconds(),
                    q->m_dropProb,
                    State(q).c_str());
        Reschedule(q);
    }

    static void Reschedule(PieQueueDisc* q)
    {
        Time left = Simulator::GetDelayLeft(q->m_rtrsEvent);
        q->m_rtrsEvent.Cancel();
        q->m_rtrsEvent = Simulator::Schedule(left, &PieQueueDiscTestCase::Update, q);
    }
};

namespace
{
void LogDoDequeueResult(PieQueueDisc* q, Ptr<QueueDiscItem> item);
void LogDoEnqueueResult(PieQueueDisc* q, Ptr<QueueDiscItem> item);
} // namespace

// PieQueueDisc with every DoEnqueue and DoDequeue call logged (after the
// call, so that the state printed is the one the call left).
class PieOracleQueueDisc : public PieQueueDisc
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::PieOracleQueueDisc")
                                .SetParent<PieQueueDisc>()
                                .SetGroupName("TrafficControl")
                                .AddConstructor<PieOracleQueueDisc>();
        return tid;
    }

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override
    {
        bool ok = PieQueueDiscTestCase::RealDoEnqueue(this, item);
        LogDoEnqueueResult(this, item);
        return ok;
    }

    Ptr<QueueDiscItem> DoDequeue() override
    {
        Ptr<QueueDiscItem> item = PieQueueDiscTestCase::RealDoDequeue(this);
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

std::unordered_map<uint64_t, PktInfo> g_pkts;
Ptr<Socket> g_txSocket;
std::vector<uint32_t> g_sizes;
uint32_t g_ectEvery = 0;
uint32_t g_nextSeq = 0;
uint64_t g_nEnq = 0, g_nDeq = 0, g_nForced = 0, g_nUnforced = 0, g_nMark = 0;
uint64_t g_nEmpty = 0;
PieQueueDisc* g_q = nullptr;

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

void
SendOne()
{
    uint32_t seq = g_nextSeq++;
    bool ect = g_ectEvery > 0 && (seq % g_ectEvery) == 0;
    g_txSocket->SetIpTos(ect ? 0x02 : 0x00);
    Ptr<Packet> p = Create<Packet>(g_sizes[seq % g_sizes.size()] - 28);
    g_pkts[p->GetUid()] = PktInfo{seq, ect};
    g_txSocket->Send(p);
}

// What the traces saw during the current DoEnqueue call.
const char* g_verdict = nullptr;
bool g_marked = false;

void
OnEnqueue(Ptr<const QueueDiscItem>)
{
    g_verdict = "enqueue";
}

void
OnDrop(Ptr<const QueueDiscItem>, const char* reason)
{
    g_verdict = std::string(reason) == PieQueueDisc::FORCED_DROP ? "drop(forced)" : "drop(unforced)";
}

void
OnMark(Ptr<const QueueDiscItem>, const char*)
{
    g_marked = true;
}

void
LogDoEnqueueResult(PieQueueDisc* q, Ptr<QueueDiscItem> item)
{
    const PktInfo& i = Info(item->GetPacket());
    NS_ABORT_MSG_IF(!g_verdict, "DoEnqueue without a trace");
    std::string v(g_verdict);
    if (v == "enqueue")
    {
        g_nEnq++;
    }
    else
    {
        (v == "drop(forced)" ? g_nForced : g_nUnforced)++;
    }
    g_nMark += g_marked;
    std::printf("%" PRId64 " %s %u seq=%u ect=%d marked=%d qbytes=%u qpkts=%u%s\n",
                NowNs(),
                g_verdict,
                item->GetSize(),
                i.seq,
                i.ect ? 1 : 0,
                g_marked ? 1 : 0,
                q->GetNBytes(),
                q->GetNPackets(),
                PieQueueDiscTestCase::State(q).c_str());
    g_verdict = nullptr;
    g_marked = false;
}

void
LogDoDequeueResult(PieQueueDisc* q, Ptr<QueueDiscItem> item)
{
    if (!item)
    {
        g_nEmpty++;
        std::printf("%" PRId64 " dequeue_empty 0\n", NowNs());
        return;
    }
    const PktInfo& i = Info(item->GetPacket());
    g_nDeq++;
    std::printf("%" PRId64 " dequeue %u seq=%u sojourn_ns=%" PRId64 " qbytes=%u%s\n",
                NowNs(),
                item->GetSize(),
                i.seq,
                (Simulator::Now() - item->GetTimeStamp()).GetNanoSeconds(),
                q->GetNBytes(),
                PieQueueDiscTestCase::State(q).c_str());
}

void
OnRx(Ptr<Socket> s)
{
    while (s->Recv())
    {
    }
}

struct Phase
{
    bool burst;
    uint64_t bps;
    int64_t durNs;
    uint32_t count;
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
    std::string sizes = "1500";
    std::string phases = "12Mbps:2s";
    uint32_t ectEvery = 0;
    std::string maxSize = "1000p";
    std::string tail = "2s";
    std::string start = "100ms";
    // PIE's attributes (ns-3.37 defaults)
    std::string tUpdate = "15ms";
    std::string qDelayRef = "15ms";
    std::string maxBurst = "150ms";
    std::string activeThreshold = "";
    uint32_t meanPktSize = 1000;
    uint32_t dqThreshold = 16384;
    double a = 0.125, b = 1.25, markEcnTh = 0.1;
    bool useEcn = false, estimator = false, capDrop = true, derandom = false;

    CommandLine cmd(__FILE__);
    cmd.AddValue("rate", "link DataRate", rate);
    cmd.AddValue("delay", "link propagation delay", delay);
    cmd.AddValue("sizes", "packet sizes at the disc (IPv4+UDP+payload), cycled", sizes);
    cmd.AddValue("phases", "RATE:DURATION (0bps = idle) or burst:N, comma separated", phases);
    cmd.AddValue("ectEvery", "0 = no ECT packets; N = packets with seq%N==0 are ECT(0)", ectEvery);
    cmd.AddValue("maxSize", "MaxSize", maxSize);
    cmd.AddValue("start", "time of the first phase", start);
    cmd.AddValue("tail", "simulated time after the last phase", tail);
    cmd.AddValue("tUpdate", "Tupdate", tUpdate);
    cmd.AddValue("qDelayRef", "QueueDelayReference", qDelayRef);
    cmd.AddValue("maxBurst", "MaxBurstAllowance", maxBurst);
    cmd.AddValue("activeThreshold", "ActiveThreshold (empty: disabled)", activeThreshold);
    cmd.AddValue("meanPktSize", "MeanPktSize", meanPktSize);
    cmd.AddValue("dqThreshold", "DequeueThreshold", dqThreshold);
    cmd.AddValue("a", "A", a);
    cmd.AddValue("b", "B", b);
    cmd.AddValue("markEcnTh", "MarkEcnThreshold", markEcnTh);
    cmd.AddValue("useEcn", "UseEcn", useEcn);
    cmd.AddValue("estimator", "UseDequeueRateEstimator", estimator);
    cmd.AddValue("capDrop", "UseCapDropAdjustment", capDrop);
    cmd.AddValue("derandom", "UseDerandomization", derandom);
    cmd.Parse(argc, argv);

    {
        std::stringstream ss(sizes);
        std::string tok;
        while (std::getline(ss, tok, ','))
        {
            g_sizes.push_back(std::stoul(tok));
            NS_ABORT_MSG_IF(g_sizes.back() < 28, "sizes must be >= 28");
        }
    }
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
    PieOracleQueueDisc::GetTypeId();
    tch.SetRootQueueDisc("ns3::PieOracleQueueDisc",
                         "MaxSize", StringValue(maxSize),
                         "Tupdate", StringValue(tUpdate),
                         "QueueDelayReference", StringValue(qDelayRef),
                         "MaxBurstAllowance", StringValue(maxBurst),
                         "MeanPktSize", UintegerValue(meanPktSize),
                         "DequeueThreshold", UintegerValue(dqThreshold),
                         "A", DoubleValue(a),
                         "B", DoubleValue(b));
    QueueDiscContainer qdiscs = tch.Install(devs.Get(0));
    Ptr<QueueDisc> qd = qdiscs.Get(0);
    qd->SetAttribute("MarkEcnThreshold", DoubleValue(markEcnTh));
    qd->SetAttribute("UseEcn", BooleanValue(useEcn));
    qd->SetAttribute("UseDequeueRateEstimator", BooleanValue(estimator));
    qd->SetAttribute("UseCapDropAdjustment", BooleanValue(capDrop));
    qd->SetAttribute("UseDerandomization", BooleanValue(derandom));
    if (!activeThreshold.empty())
    {
        qd->SetAttribute("ActiveThreshold", StringValue(activeThreshold));
    }
    g_q = PeekPointer(DynamicCast<PieQueueDisc>(qd));
    PieQueueDiscTestCase::LogDraws(g_q);
    PieQueueDiscTestCase::Reschedule(g_q);

    Ipv4AddressHelper addr;
    addr.SetBase("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devs);
    Ptr<Socket> rx = Socket::CreateSocket(nodes.Get(1), UdpSocketFactory::GetTypeId());
    rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
    rx->SetRecvCallback(MakeCallback(&OnRx));
    g_txSocket = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
    g_txSocket->Bind();
    g_txSocket->Connect(InetSocketAddress(ifs.GetAddress(1), 9));

    qd->TraceConnectWithoutContext("Enqueue", MakeCallback(&OnEnqueue));
    qd->TraceConnectWithoutContext("DropBeforeEnqueue", MakeCallback(&OnDrop));
    qd->TraceConnectWithoutContext("Mark", MakeCallback(&OnMark));

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
        uint64_t bits = uint64_t(g_sizes[0]) * 8;
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

    std::printf("# ns-3 3.37 PieQueueDisc oracle\n");
    std::printf("# rate=%s delay=%s sizes=%s phases=%s ectEvery=%u start=%s tail=%s\n",
                rate.c_str(), delay.c_str(), sizes.c_str(), phases.c_str(), ectEvery,
                start.c_str(), tail.c_str());
    std::printf("#! maxSize=%s tUpdate_ns=%" PRId64 " qDelayRef_ns=%" PRId64 " maxBurst_ns=%" PRId64
                " activeThreshold_ns=%" PRId64 " meanPktSize=%u dqThreshold=%u a=%.17g b=%.17g"
                " markEcnTh=%.17g useEcn=%d estimator=%d capDrop=%d derandom=%d\n",
                maxSize.c_str(),
                Time(tUpdate).GetNanoSeconds(),
                Time(qDelayRef).GetNanoSeconds(),
                Time(maxBurst).GetNanoSeconds(),
                activeThreshold.empty() ? int64_t(-1) : Time(activeThreshold).GetNanoSeconds(),
                meanPktSize, dqThreshold, a, b, markEcnTh,
                useEcn, estimator, capDrop, derandom);
    std::printf("%s", sched.str().c_str());
    std::printf("# scheduled_packets=%" PRIu64 " end_ns=%" PRId64 "\n", nSched, endNs);

    Simulator::Stop(NanoSeconds(endNs));
    Simulator::Run();

    std::printf("# summary sent=%u enqueued=%" PRIu64 " dequeued=%" PRIu64 " forced=%" PRIu64
                " unforced=%" PRIu64 " marked=%" PRIu64 " left=%u empty_dequeues=%" PRIu64 "\n",
                g_nextSeq, g_nEnq, g_nDeq, g_nForced, g_nUnforced, g_nMark, qd->GetNPackets(),
                g_nEmpty);
    g_q = nullptr;
    g_txSocket = nullptr;
    Simulator::Destroy();
    return 0;
}
