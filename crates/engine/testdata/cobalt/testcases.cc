// The set-ups of ns-3.37's cobalt-queue-disc-test-suite.cc, run against the
// library's CobaltQueueDisc: one line per enqueue and dequeue with the
// queue's size and counters after it, and the draws of stream 1 (the stream
// the suite's Enhanced Blue case assigns).  Dumbbell's cobalt.rs tests
// replay these calls and compare line by line.
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/traffic-control-module.h"
#include <cstdio>

using namespace ns3;

class Item : public QueueDiscItem
{
  public:
    Item(Ptr<Packet> p, bool ect)
        : QueueDiscItem(p, Address(), 0),
          m_ect(ect)
    {
    }
    void AddHeader() override {}
    bool Mark() override { return m_ect; }

  private:
    bool m_ect;
};

static Ptr<CobaltQueueDisc> g_q;
static const char* g_case;
static uint32_t g_count = 0;

static void
CountTrace(uint32_t, uint32_t v)
{
    g_count = v;
}

static void
Log(const char* op, const char* what)
{
    QueueDisc::Stats st = g_q->GetStats();
    printf("%s %ld %s %s pkts=%u bytes=%u pdrop=%.17g dropnext=%ld count=%u overlimit=%u "
           "target_drops=%u forced_marks=%u ce_marks=%u\n",
           g_case, (long)Simulator::Now().GetNanoSeconds(), op, what,
           g_q->GetNPackets(), g_q->GetNBytes(), g_q->GetPdrop(), (long)g_q->GetDropNext(), g_count,
           st.GetNDroppedPackets(CobaltQueueDisc::OVERLIMIT_DROP),
           st.GetNDroppedPackets(CobaltQueueDisc::TARGET_EXCEEDED_DROP),
           st.GetNMarkedPackets(CobaltQueueDisc::FORCED_MARK),
           st.GetNMarkedPackets(CobaltQueueDisc::CE_THRESHOLD_EXCEEDED_MARK));
}

static void
Enq(uint32_t size, uint32_t n, bool ect)
{
    for (uint32_t i = 0; i < n; i++)
    {
        char w[64];
        snprintf(w, sizeof w, "size=%u ect=%d", size, ect ? 1 : 0);
        g_q->Enqueue(Create<Item>(Create<Packet>(size), ect));
        Log("enqueue", w);
    }
}

static void
Deq()
{
    Ptr<QueueDiscItem> it = g_q->Dequeue();
    Log("dequeue", it ? "got=1" : "got=0");
}

static void
Make(const char* name, std::vector<std::pair<std::string, Ptr<AttributeValue>>> attrs)
{
    g_case = name;
    g_count = 0;
    g_q = CreateObject<CobaltQueueDisc>();
    for (auto& a : attrs)
    {
        g_q->SetAttribute(a.first, *a.second);
    }
    g_q->TraceConnectWithoutContext("Count", MakeCallback(&CountTrace));
    g_q->Initialize();
    printf("%s case\n", name);
}

static Ptr<AttributeValue>
Sz(QueueSizeUnit m, uint32_t n)
{
    return Create<QueueSizeValue>(QueueSize(m, n));
}

int
main()
{
    Ptr<AttributeValue> noBlue = Create<TimeValue>(Time::Max());
    for (QueueSizeUnit m : {QueueSizeUnit::PACKETS, QueueSizeUnit::BYTES})
    {
        bool b = m == QueueSizeUnit::BYTES;
        const char* sfx = b ? "bytes" : "packets";
        char name[64];
        // Drop test: 200 packets, one every 10 ms, limit 100 packets
        snprintf(name, sizeof name, "drop_%s", sfx);
        Make(name, {{"MaxSize", Sz(m, (b ? 1500 : 1) * 100)}, {"BlueThreshold", noBlue}});
        for (int i = 0; i < 200; i++)
        {
            Simulator::Schedule(Seconds((i + 1) * 0.01), &Enq, b ? 1500 : 1, 1, true);
        }
        Simulator::Stop(Seconds(8.0));
        Simulator::Run();
        Simulator::Destroy();
        // Mark test, three sub-cases
        for (int sub = 1; sub <= 3; sub++)
        {
            uint32_t ms = b ? 1000 : 1;
            snprintf(name, sizeof name, "mark%d_%s", sub, sfx);
            Make(name, {{"MaxSize", Sz(m, ms * 500)}, {"UseEcn", Create<BooleanValue>(sub != 1)}, {"BlueThreshold", noBlue}});
            if (sub == 3)
            {
                Enq(1000, 3, true);
                Enq(1000, 17, false);
            }
            else
            {
                Enq(1000, 20, sub == 2);
            }
            Time first = 2 * g_q->GetTarget();
            Time second = first + 2 * g_q->GetInterval();
            Simulator::Schedule(first, &Deq);
            Simulator::Schedule(second, &Deq);
            if (sub != 1)
            {
                Simulator::Schedule(second, &Deq);
                Simulator::Schedule(second * 2, &Deq);
            }
            Simulator::Run();
            Simulator::Destroy();
        }
        // CE threshold test
        snprintf(name, sizeof name, "ce_%s", sfx);
        Make(name, {{"UseEcn", Create<BooleanValue>(true)}, {"CeThreshold", Create<TimeValue>(MilliSeconds(1))}, {"BlueThreshold", noBlue}});
        auto enqd = [](uint32_t n, Time d) {
            for (uint32_t i = 0; i < n; i++)
            {
                Simulator::Schedule(Seconds((i + 1) * d.GetSeconds()), &Enq, 1000, 1, true);
            }
        };
        auto deqd = [](uint32_t n, Time d) {
            for (uint32_t i = 0; i < n; i++)
            {
                Simulator::Schedule(Seconds((i + 1) * d.GetSeconds()), &Deq);
            }
        };
        enqd(11, MilliSeconds(1));
        deqd(11, MicroSeconds(1100));
        Simulator::Schedule(MilliSeconds(11), [=]() { enqd(9, MicroSeconds(1200)); });
        Simulator::Schedule(MilliSeconds(11), [=]() { deqd(9, MicroSeconds(1100)); });
        Simulator::Schedule(MilliSeconds(20), [=]() { enqd(10, MilliSeconds(1)); });
        Simulator::Schedule(MilliSeconds(11), [=]() { deqd(10, MicroSeconds(1100)); });
        Simulator::Run();
        Simulator::Destroy();
        // Enhanced Blue test: defaults (Blue on), stream 1; then Blue off with ECN
        for (int sub = 1; sub <= 2; sub++)
        {
            snprintf(name, sizeof name, "blue%d_%s", sub, sfx);
            if (sub == 1)
            {
                Make(name, {});
                g_q->AssignStreams(1);
            }
            else
            {
                Make(name, {{"UseEcn", Create<BooleanValue>(true)}, {"BlueThreshold", noBlue}});
            }
            Enq(b ? 1500 : 1, 200, true);
            for (int i = 0; i < 100; i++)
            {
                Simulator::Schedule(Seconds((i + 1) * 0.01), &Deq);
            }
            Simulator::Stop(Seconds(8.0));
            Simulator::Run();
            Simulator::Destroy();
        }
    }
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(1);
    for (int i = 0; i < 200; i++)
    {
        printf("draw %.17g\n", u->GetValue());
    }
    return 0;
}
