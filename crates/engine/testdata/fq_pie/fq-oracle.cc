// A deterministic ns-3.37 run of FqPieQueueDisc or FqCobaltQueueDisc, driven
// directly (no devices): a precomputed list of enqueue and dequeue calls,
// each run as its own event (each scheduling the next, so periodic events
// due at the same time run first), packets with given flow hashes, sizes
// and ECT.  One line per call, then what happened during it (drops before
// enqueue, drops after dequeue, marks, each with ns-3's reason, and every
// uniform draw a flow queue's AQM made), then the outcome: the packet
// returned, the backlog, and each flow queue's packets, bytes, deficit and
// status.  Usage: fq-oracle pie|cobalt SCENARIO.  Build: see run.sh.
//
// The flow queues' random variables are private; `private` is defined as
// `public` while ns-3's traffic-control headers are read, only to put a
// logging wrapper around each (it delegates, so the stream is unchanged).

#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <cinttypes>
#include <cstdio>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#define private public
#define protected public
#include "ns3/cobalt-queue-disc.h"
#include "ns3/fq-cobalt-queue-disc.h"
#include "ns3/fq-pie-queue-disc.h"
#include "ns3/pie-queue-disc.h"
#undef private
#undef protected

using namespace ns3;

class LoggedUniform : public UniformRandomVariable
{
  public:
    Ptr<UniformRandomVariable> m_inner;
    double GetValue() override
    {
        double u = m_inner->GetValue();
        std::printf("draw %.17g\n", u);
        return u;
    }
};

class Item : public QueueDiscItem
{
  public:
    Item(Ptr<Packet> p, uint32_t hash, bool ect)
        : QueueDiscItem(p, Address(), 0),
          m_hash(hash),
          m_ect(ect)
    {
    }
    void AddHeader() override {}
    bool Mark() override { return m_ect; }
    uint32_t Hash(uint32_t) const override { return m_hash; }

  private:
    uint32_t m_hash;
    bool m_ect;
};

struct Call
{
    int64_t t;
    bool enq;
    uint32_t size;
    uint32_t hash;
    bool ect;
};

static Ptr<QueueDisc> g_q;
static bool g_pie;
static std::vector<Call> g_calls;
static std::map<uint64_t, uint32_t> g_seq; // packet uid -> seq
static uint32_t g_next = 0;
static size_t g_wrapped = 0;

static void
Dbe(Ptr<const QueueDiscItem> it, const char* r)
{
    std::printf("drop_before seq=%u reason=%s\n", g_seq[it->GetPacket()->GetUid()], r);
}

static void
Dad(Ptr<const QueueDiscItem> it, const char* r)
{
    std::printf("drop_after seq=%u reason=%s\n", g_seq[it->GetPacket()->GetUid()], r);
}

static void
Mk(Ptr<const QueueDiscItem> it, const char* r)
{
    std::printf("mark seq=%u reason=%s\n", g_seq[it->GetPacket()->GetUid()], r);
}

static void
WrapNew()
{
    for (; g_wrapped < g_q->GetNQueueDiscClasses(); g_wrapped++)
    {
        Ptr<QueueDisc> c = g_q->GetQueueDiscClass(g_wrapped)->GetQueueDisc();
        Ptr<LoggedUniform> l = CreateObject<LoggedUniform>();
        if (g_pie)
        {
            Ptr<PieQueueDisc> p = DynamicCast<PieQueueDisc>(c);
            l->m_inner = p->m_uv;
            p->m_uv = l;
        }
        else
        {
            Ptr<CobaltQueueDisc> p = DynamicCast<CobaltQueueDisc>(c);
            l->m_inner = p->m_uv;
            p->m_uv = l;
        }
    }
}

template <class F>
static void
Flows(std::string& out)
{
    char b[96];
    for (size_t i = 0; i < g_q->GetNQueueDiscClasses(); i++)
    {
        Ptr<F> f = DynamicCast<F>(g_q->GetQueueDiscClass(i));
        Ptr<QueueDisc> c = f->GetQueueDisc();
        snprintf(b, sizeof b, " q%zu=%u,%u,%d,%d", i, c->GetNPackets(), c->GetNBytes(), f->GetDeficit(), (int)f->GetStatus());
        out += b;
    }
}

static void
Run(size_t i)
{
    const Call& c = g_calls[i];
    int64_t now = Simulator::Now().GetNanoSeconds();
    long got = -1;
    if (c.enq)
    {
        uint32_t seq = g_next++;
        Ptr<Packet> p = Create<Packet>(c.size);
        g_seq[p->GetUid()] = seq;
        std::printf("%" PRId64 " enqueue %u seq=%u hash=%u ect=%d\n", now, c.size, seq, c.hash, c.ect ? 1 : 0);
        g_q->Enqueue(Create<Item>(p, c.hash, c.ect));
        WrapNew();
    }
    else
    {
        std::printf("%" PRId64 " dequeue\n", now);
        Ptr<QueueDiscItem> it = g_q->Dequeue();
        if (it)
        {
            got = g_seq[it->GetPacket()->GetUid()];
        }
    }
    std::string fl;
    if (g_pie)
    {
        Flows<FqPieFlow>(fl);
    }
    else
    {
        Flows<FqCobaltFlow>(fl);
    }
    char g[24];
    if (got < 0)
    {
        snprintf(g, sizeof g, "-");
    }
    else
    {
        snprintf(g, sizeof g, "%ld", got);
    }
    std::printf("done got=%s qpkts=%u qbytes=%u%s\n", g, g_q->GetNPackets(), g_q->GetNBytes(), fl.c_str());
    if (i + 1 < g_calls.size())
    {
        Simulator::Schedule(NanoSeconds(g_calls[i + 1].t - now), &Run, i + 1);
    }
}

// A 64-bit LCG (Knuth's MMIX constants): the scenario's own numbers.
static uint64_t g_lcg = 1;
static double
U()
{
    g_lcg = g_lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return (g_lcg >> 11) * (1.0 / 9007199254740992.0);
}

int
main(int argc, char** argv)
{
    if (argc != 3)
    {
        std::fprintf(stderr, "usage: fq-oracle pie|cobalt SCENARIO\n");
        return 2;
    }
    g_pie = std::strcmp(argv[1], "pie") == 0;
    int sc = std::atoi(argv[2]);
    // scenario: limit (packets), flows (rate in packets/s, size, ECT), duration
    uint32_t limit = 10240;
    double dur = 6.0;
    double service = 0.0012; // one dequeue per 1.2 ms
    struct Flow
    {
        double rate;
        uint32_t size;
        bool ect;
        uint32_t hash;
    };
    std::vector<Flow> flows;
    g_lcg = 12345 + sc;
    if (sc == 1)
    {
        // bulk ECT and not-ECT flows over the service rate, two sparse flows
        flows = {{250, 1500, true, 0}, {250, 1500, true, 0}, {200, 1500, false, 0}, {200, 1500, false, 0},
                 {10, 200, false, 0}, {20, 100, true, 0}};
    }
    else
    {
        // a small limit, mixed sizes: overflow batches from the fattest queue
        limit = 120;
        dur = 3.0;
        flows = {{600, 1500, false, 0}, {300, 1000, false, 0}, {200, 600, true, 0}, {50, 300, false, 0},
                 {40, 1500, true, 0}};
    }
    for (auto& f : flows)
    {
        f.hash = (uint32_t)(U() * 4294967296.0);
    }
    for (size_t k = 0; k < flows.size(); k++)
    {
        double t = U() / flows[k].rate;
        while (t < dur)
        {
            g_calls.push_back({(int64_t)(t * 1e9) + 1, true, flows[k].size, flows[k].hash, flows[k].ect});
            t += -std::log(1.0 - U()) / flows[k].rate;
        }
    }
    for (double t = service; t < dur + 2.0; t += service)
    {
        g_calls.push_back({(int64_t)(t * 1e9), false, 0, 0, false});
    }
    std::stable_sort(g_calls.begin(), g_calls.end(), [](const Call& a, const Call& b) { return a.t < b.t; });
    if (g_pie)
    {
        g_q = CreateObject<FqPieQueueDisc>();
    }
    else
    {
        g_q = CreateObject<FqCobaltQueueDisc>();
    }
    g_q->SetAttribute("MaxSize", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, limit)));
    if (g_pie)
    {
        DynamicCast<FqPieQueueDisc>(g_q)->SetQuantum(1500);
    }
    else
    {
        DynamicCast<FqCobaltQueueDisc>(g_q)->SetQuantum(1500);
    }
    if (sc == 2)
    {
        g_q->SetAttribute("DropBatchSize", UintegerValue(8));
        g_q->SetAttribute("Flows", UintegerValue(64));
    }
    g_q->TraceConnectWithoutContext("DropBeforeEnqueue", MakeCallback(&Dbe));
    g_q->TraceConnectWithoutContext("DropAfterDequeue", MakeCallback(&Dad));
    g_q->TraceConnectWithoutContext("Mark", MakeCallback(&Mk));
    g_q->Initialize();
    std::printf("#! disc=%s scenario=%d maxSize=%up flows=%u batch=%u\n", argv[1], sc, limit, sc == 2 ? 64 : 1024, sc == 2 ? 8 : 64);
    Simulator::Schedule(NanoSeconds(g_calls[0].t), &Run, 0);
    Simulator::Stop(Seconds(dur + 3.0));
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
