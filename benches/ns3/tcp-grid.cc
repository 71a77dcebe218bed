// tcp-grid.cc -- one point of the full TCP's grid against ns-3.37 (issue 17, item 6).
//
// Topology (every flow has the same base RTT):
//
//   S_0..S_{N-1} --(10*C, 1 ms)-- R1 ==(C, RTT/2 - 2 ms, queue disc)== R2 --(10*C, 1 ms)-- D
//
//   B (bottleneck queue disc limit, packets) = max(ceil(C * RTT / (8 * 1502)), 10), over a
//     one-packet device queue; in both directions.
//   DropTail : FifoQueueDisc of B packets.
//   RED      : RedQueueDisc, MinTh 0.2 B, MaxTh 0.6 B, QW 0.002, LInterm 10, Gentle, Wait,
//              MeanPktSize 1502, LinkBandwidth C, LinkDelay the bottleneck's; drops (no ECN),
//              but for DCTCP: a step marker (MinTh = MaxTh = K, QW 1, Gentle off, ECN, no hard
//              drop), K = max(ceil(BDP / 6), 4) packets.
//   Access links: 10000-packet DropTail device queues, no queue disc (ns-3's default FqCoDel
//              is removed).
//   TCP      : ns3::Tcp<CC> (--cc=NewReno, Cubic, Bbr, ...), ns-3.37's defaults otherwise (SACK,
//              PRR, timestamps, window scaling, delayed ACK count 2, initial cwnd 10, min RTO 1 s)
//              but SegmentSize 1448 (MTU 1500) and send/receive buffers of
//              max(4 * BDP + 2 * B segments, 1 MiB), which do not bind (a sender held by its send
//              buffer sends the buffer's sub-MSS tail in ns-3, whole segments in Dumbbell:
//              docs/full-tcp.md); BulkSend (unlimited) from S_i to its own
//              PacketSink at D (port 5000 + i), flow i starting at 0.05 * i s.
//
// Output: one JSON object on stdout: the point, the bottleneck queue's drops and marks, the
// simulator's event count, CPU seconds of the run, and per flow: goodput (payload delivered to
// the sink over [start_i, T], Mb/s), the time-weighted mean and the maximum of cwnd in segments
// of 1448 bytes (from start_i to T, leaving out the time cwnd holds a wrapped value of 2^31 bytes or
// more, whose changes are counted: ns-3.37's TcpYeah and TcpBbr underflow at times), entries into
// CA_RECOVERY (fast recoveries) and into CA_LOSS (timeouts).
//
// Build: benches/ns3/build.sh (g++ against Debian's libns3-dev 3.37).
// Usage: tcp-grid --cc=Cubic --n=4 --bw=100 --rtt=50 --queue=RED --time=10 [--trace=FILE] [--ascii=FILE]
//        [--limit=B] [--buf=BYTES] (overrides of the queue limit and the buffers)
// (--trace: every cwnd and congestion-state change, "time flow cwnd SEGMENTS" / "time flow state N")

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <cmath>
#include <cstdio>
#include <sys/resource.h>
#include <vector>

using namespace ns3;

namespace
{

const uint32_t kSeg = 1448;

FILE* g_trace = nullptr; // --trace: "time flow cwnd_segments congestion_state" on every change

struct Flow
{
    uint32_t id{0};
    double start{0};
    double lastT{0};
    double lastCwnd{0}; // segments
    double cwndInt{0}; // over the time cwnd is not wrapped
    double cwndT{0};
    double cwndMax{0};
    uint32_t wraps{0}; // changes to a cwnd of 2^31 bytes or more: an unsigned underflow
    uint32_t recoveries{0};
    uint32_t timeouts{0};
    Ptr<PacketSink> sink;
};

void
CwndChange(Flow* f, uint32_t, uint32_t v)
{
    double now = Simulator::Now().GetSeconds();
    if (f->lastCwnd * kSeg < 2147483648.0)
    {
        f->cwndInt += (now - f->lastT) * f->lastCwnd;
        f->cwndT += now - f->lastT;
    }
    f->lastT = now;
    f->lastCwnd = double(v) / kSeg;
    if (v >= 2147483648u)
    {
        f->wraps++;
    }
    else
    {
        f->cwndMax = std::max(f->cwndMax, f->lastCwnd);
    }
    if (g_trace)
    {
        std::fprintf(g_trace, "%.6f %u cwnd %.3f\n", now, f->id, f->lastCwnd);
    }
}

void
CongState(Flow* f, TcpSocketState::TcpCongState_t o, TcpSocketState::TcpCongState_t n)
{
    if (n == TcpSocketState::CA_RECOVERY && o != TcpSocketState::CA_RECOVERY)
    {
        f->recoveries++;
    }
    if (n == TcpSocketState::CA_LOSS && o != TcpSocketState::CA_LOSS)
    {
        f->timeouts++;
    }
    if (g_trace)
    {
        std::fprintf(g_trace, "%.6f %u state %d\n", Simulator::Now().GetSeconds(), f->id, (int)n);
    }
}

// The bulk sender makes its socket when it starts; the window is its initial one until the
// handshake completes, a round trip later.
void
Hook(Flow* f, Ptr<BulkSendApplication> a, uint32_t initialCwnd)
{
    Ptr<Socket> s = a->GetSocket();
    f->lastT = Simulator::Now().GetSeconds();
    f->lastCwnd = initialCwnd;
    f->cwndMax = initialCwnd;
    s->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&CwndChange, f));
    s->TraceConnectWithoutContext("CongState", MakeBoundCallback(&CongState, f));
}

double
CpuSeconds()
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + 1e-6 * (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string cc = "NewReno";
    uint32_t n = 1;
    double bwMbps = 10;
    double rttMs = 50;
    std::string queue = "DropTail";
    double simTime = 10;
    uint32_t seed = 1;
    std::string trace;
    std::string ascii;
    CommandLine cmd(__FILE__);
    cmd.AddValue("cc", "congestion control: ns3::Tcp<cc> (NewReno, Cubic, Bbr, Dctcp, ...)", cc);
    cmd.AddValue("n", "number of flows", n);
    cmd.AddValue("bw", "bottleneck rate, Mb/s", bwMbps);
    cmd.AddValue("rtt", "base round-trip time, ms (at least 5)", rttMs);
    cmd.AddValue("queue", "bottleneck queue: DropTail or RED", queue);
    cmd.AddValue("time", "simulated seconds", simTime);
    uint32_t limitArg = 0;
    uint32_t bufArg = 0;
    cmd.AddValue("limit", "bottleneck queue disc limit B in packets (default: the BDP, at least 10)", limitArg);
    cmd.AddValue("buf", "send and receive buffers in bytes (default: max(4 BDP + 2 B segments, 1 MiB))", bufArg);
    cmd.AddValue("seed", "RNG run number", seed);
    cmd.AddValue("trace", "if set, write each flow's cwnd and congestion-state changes to this file", trace);
    cmd.AddValue("ascii", "if set, write ns-3's ASCII trace of every device to this file", ascii);
    cmd.Parse(argc, argv);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe("ns3::Tcp" + cc, &tid))
    {
        std::fprintf(stderr, "tcp-grid: --cc=%s: no ns3::Tcp%s in ns-3\n", cc.c_str(), cc.c_str());
        return 2;
    }
    if (queue != "DropTail" && queue != "RED")
    {
        std::fprintf(stderr, "tcp-grid: --queue=%s: expected DropTail or RED\n", queue.c_str());
        return 2;
    }
    if (n < 1 || rttMs < 5 || bwMbps <= 0 || simTime <= 0.05 * n)
    {
        std::fprintf(stderr, "tcp-grid: need n >= 1, rtt >= 5 ms, bw > 0, time > 0.05 n\n");
        return 2;
    }
    RngSeedManager::SetRun(seed);
    if (!trace.empty() && !(g_trace = std::fopen(trace.c_str(), "w")))
    {
        std::fprintf(stderr, "tcp-grid: --trace=%s: cannot write\n", trace.c_str());
        return 2;
    }
    const bool dctcp = (cc == "Dctcp");
    const double C = bwMbps * 1e6;
    const double bdp = C * rttMs / 1000.0 / (8.0 * 1502);
    const uint32_t B = limitArg ? limitArg : std::max<uint32_t>((uint32_t)std::ceil(bdp), 10);
    const uint32_t K = std::max<uint32_t>((uint32_t)std::ceil(bdp / 6.0), 4);
    const uint32_t buf = bufArg ? bufArg : std::max<uint32_t>((uint32_t)std::ceil(4 * bdp + 2 * B) * kSeg, 1 << 20);
    const double btlDelayMs = rttMs / 2.0 - 2.0;

    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(tid));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(kSeg));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(buf));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(buf));

    NodeContainer senders;
    senders.Create(n);
    NodeContainer routers;
    routers.Create(2);
    NodeContainer dst;
    dst.Create(1);
    InternetStackHelper stack;
    stack.InstallAll();

    PointToPointHelper access;
    access.SetDeviceAttribute("DataRate", DataRateValue(DataRate((uint64_t)(10 * C))));
    access.SetChannelAttribute("Delay", TimeValue(MilliSeconds(1)));
    access.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("10000p"));
    PointToPointHelper btl;
    btl.SetDeviceAttribute("DataRate", DataRateValue(DataRate((uint64_t)C)));
    btl.SetChannelAttribute("Delay", TimeValue(MicroSeconds((int64_t)std::llround(btlDelayMs * 1000))));
    btl.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));
    NetDeviceContainer bDev = btl.Install(routers.Get(0), routers.Get(1));

    TrafficControlHelper tch;
    std::string maxSize = std::to_string(B) + "p";
    if (queue == "DropTail")
    {
        tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue(maxSize));
    }
    else if (dctcp)
    {
        tch.SetRootQueueDisc("ns3::RedQueueDisc", "MaxSize", StringValue(maxSize), "MinTh", DoubleValue(K),
                             "MaxTh", DoubleValue(K), "QW", DoubleValue(1.0), "Gentle", BooleanValue(false),
                             "UseEcn", BooleanValue(true), "UseHardDrop", BooleanValue(false),
                             "MeanPktSize", UintegerValue(1502),
                             "LinkBandwidth", DataRateValue(DataRate((uint64_t)C)),
                             "LinkDelay", TimeValue(MicroSeconds((int64_t)std::llround(btlDelayMs * 1000))));
    }
    else
    {
        tch.SetRootQueueDisc("ns3::RedQueueDisc", "MaxSize", StringValue(maxSize), "MinTh", DoubleValue(0.2 * B),
                             "MaxTh", DoubleValue(0.6 * B), "QW", DoubleValue(0.002), "LInterm", DoubleValue(10.0),
                             "Gentle", BooleanValue(true), "Wait", BooleanValue(true),
                             "UseEcn", BooleanValue(false), "MeanPktSize", UintegerValue(1502),
                             "LinkBandwidth", DataRateValue(DataRate((uint64_t)C)),
                             "LinkDelay", TimeValue(MicroSeconds((int64_t)std::llround(btlDelayMs * 1000))));
    }
    QueueDiscContainer qd = tch.Install(bDev);

    NetDeviceContainer dDev = access.Install(routers.Get(1), dst.Get(0));
    Ipv4AddressHelper addr;
    addr.SetBase("10.255.0.0", "255.255.255.252");
    addr.Assign(bDev);
    addr.SetBase("10.255.1.0", "255.255.255.252");
    Ipv4InterfaceContainer dIf = addr.Assign(dDev);
    TrafficControlHelper none; // for Uninstall: access links have only their device queue
    none.Uninstall(dDev);
    addr.SetBase("10.0.0.0", "255.255.255.252");
    for (uint32_t i = 0; i < n; i++)
    {
        NetDeviceContainer d = access.Install(senders.Get(i), routers.Get(0));
        addr.Assign(d);
        addr.NewNetwork();
        none.Uninstall(d);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    std::vector<Flow> flows(n);
    uint32_t initialCwnd = 10;
    for (uint32_t i = 0; i < n; i++)
    {
        uint16_t port = 5000 + i;
        flows[i].id = i;
        flows[i].start = 0.05 * i;
        PacketSinkHelper sh("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sa = sh.Install(dst.Get(0));
        sa.Start(Seconds(0));
        flows[i].sink = DynamicCast<PacketSink>(sa.Get(0));
        BulkSendHelper bs("ns3::TcpSocketFactory", InetSocketAddress(dIf.GetAddress(1), port));
        bs.SetAttribute("MaxBytes", UintegerValue(0));
        ApplicationContainer ba = bs.Install(senders.Get(i));
        ba.Start(Seconds(flows[i].start));
        Simulator::Schedule(Seconds(flows[i].start) + NanoSeconds(1), &Hook, &flows[i],
                            DynamicCast<BulkSendApplication>(ba.Get(0)), initialCwnd);
    }

    if (!ascii.empty())
    {
        AsciiTraceHelper ath;
        Ptr<OutputStreamWrapper> st = ath.CreateFileStream(ascii);
        access.EnableAsciiAll(st);
        btl.EnableAsciiAll(st);
    }
    Simulator::Stop(Seconds(simTime));
    double cpu0 = CpuSeconds();
    Simulator::Run();
    double cpu = CpuSeconds() - cpu0;
    const QueueDisc::Stats& st = qd.Get(0)->GetStats();

    std::printf("{\"sim\": \"ns-3.37\", \"cc\": \"%s\", \"n\": %u, \"bw_mbps\": %g, \"rtt_ms\": %g, "
                "\"queue\": \"%s\", \"time\": %g, \"limit\": %u, \"k\": %u, \"drops\": %llu, "
                "\"marks\": %llu, \"events\": %llu, \"cpu_s\": %.3f, \"flows\": [",
                cc.c_str(), n, bwMbps, rttMs, queue.c_str(), simTime, B, dctcp ? K : 0,
                (unsigned long long)st.nTotalDroppedPackets, (unsigned long long)st.nTotalMarkedPackets,
                (unsigned long long)Simulator::GetEventCount(), cpu);
    for (uint32_t i = 0; i < n; i++)
    {
        Flow& f = flows[i];
        uint32_t wraps = f.wraps;
        CwndChange(&f, 0, (uint32_t)std::llround(f.lastCwnd * kSeg)); // close the integral at T
        double span = simTime - f.start;
        std::printf("%s{\"goodput_mbps\": %.6f, \"cwnd_mean\": %.3f, \"cwnd_max\": %.3f, "
                    "\"cwnd_wraps\": %u, \"fast_recoveries\": %u, \"timeouts\": %u}",
                    i ? ", " : "", f.sink->GetTotalRx() * 8.0 / span / 1e6,
                    f.cwndT > 0 ? f.cwndInt / f.cwndT : 0.0, f.cwndMax, wraps, f.recoveries, f.timeouts);
    }
    std::printf("]}\n");
    Simulator::Destroy();
    if (g_trace)
    {
        std::fclose(g_trace);
    }
    return 0;
}
