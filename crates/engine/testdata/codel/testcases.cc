// testcases.cc -- prints the concrete numbers behind the assertions of
// ns-3.37's src/traffic-control/test/codel-queue-disc-test-suite.cc, by
// re-running the same set-ups against the installed libns3 (Debian 3.37).
// It does not assert anything itself: TESTS.md turns the printed values into
// expectations. Build: see run.sh.

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/traffic-control-module.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>

using namespace ns3;

// CoDelQueueDisc befriends these two global classes (for ns-3's own tests).
class CoDelQueueDiscNewtonStepTest
{
  public:
    static uint16_t Newton(uint16_t r, uint32_t c)
    {
        return CoDelQueueDisc::NewtonStep(r, c);
    }
};

class CoDelQueueDiscControlLawTest
{
  public:
    static uint32_t Law(uint32_t t, uint32_t i, uint32_t r)
    {
        return CoDelQueueDisc::ControlLaw(t, i, r);
    }

    static uint32_t T2C(Ptr<CoDelQueueDisc> q, Time t)
    {
        return q->Time2CoDel(t);
    }
};

// Minimal item: Mark() succeeds iff the packet is "ECN capable".
class TItem : public QueueDiscItem
{
  public:
    TItem(Ptr<Packet> p, bool ecn)
        : QueueDiscItem(p, Address(), 0),
          m_ecn(ecn)
    {
    }

    void AddHeader() override
    {
    }

    bool Mark() override
    {
        return m_ecn;
    }

  private:
    bool m_ecn;
};

static uint32_t g_dropNextChanges = 0;

static void
DropNextTrace(uint32_t, uint32_t)
{
    g_dropNextChanges++;
}

static void
DoDequeue(Ptr<CoDelQueueDisc> q, std::string label)
{
    uint32_t qBefore = q->GetCurrentSize().GetValue();
    uint32_t dnBefore = q->GetDropNext();
    g_dropNextChanges = 0;
    Ptr<QueueDiscItem> item;
    if (qBefore != 0)
    {
        item = q->Dequeue();
    }
    const auto& st = q->GetStats();
    std::printf("  %-8s t=%6.1fms now_us=%-7" PRId64 " size_before=%-6u size_after=%-6u "
                "drops=%u targetMarks=%u ceMarks=%u overlimit=%u dropNext_before=%u "
                "dropNext_after=%u dropNext_changes=%u\n",
                label.c_str(),
                Simulator::Now().GetSeconds() * 1000,
                Simulator::Now().GetMicroSeconds(),
                qBefore,
                q->GetCurrentSize().GetValue(),
                st.GetNDroppedPackets(CoDelQueueDisc::TARGET_EXCEEDED_DROP),
                st.GetNMarkedPackets(CoDelQueueDisc::TARGET_EXCEEDED_MARK),
                st.GetNMarkedPackets(CoDelQueueDisc::CE_THRESHOLD_EXCEEDED_MARK),
                st.GetNDroppedPackets(CoDelQueueDisc::OVERLIMIT_DROP),
                dnBefore,
                q->GetDropNext(),
                g_dropNextChanges);
}

static Ptr<CoDelQueueDisc>
MakeQ(QueueSizeUnit mode, uint32_t maxPkts, bool ecn, Time ce)
{
    Ptr<CoDelQueueDisc> q = CreateObject<CoDelQueueDisc>();
    uint32_t modeSize = mode == QueueSizeUnit::BYTES ? 1000 : 1;
    q->SetAttribute("MaxSize", QueueSizeValue(QueueSize(mode, modeSize * maxPkts)));
    q->SetAttribute("UseEcn", BooleanValue(ecn));
    if (!ce.IsZero())
    {
        q->SetAttribute("CeThreshold", TimeValue(ce));
    }
    q->Initialize();
    q->TraceConnectWithoutContext("DropNext", MakeCallback(&DropNextTrace));
    return q;
}

static void
Fill(Ptr<CoDelQueueDisc> q, uint32_t n, bool ecn)
{
    for (uint32_t i = 0; i < n; i++)
    {
        q->Enqueue(Create<TItem>(Create<Packet>(1000), ecn));
    }
}

int
main()
{
    // ---------------- Test 3: NewtonStep grid ----------------
    std::printf("NEWTON grid: recInvSqrt in {0xff,0x7f,...,0x1} x count in {1,2,4,...,128}\n");
    std::printf("recInvSqrt");
    for (uint32_t c = 1; c < 0xff; c *= 2)
    {
        std::printf(",c=%u", c);
    }
    std::printf("\n");
    for (uint16_t r = 0xff; r > 0; r /= 2)
    {
        std::printf("0x%02x", r);
        for (uint32_t c = 1; c < 0xff; c *= 2)
        {
            std::printf(",%u", CoDelQueueDiscNewtonStepTest::Newton(r, c));
        }
        std::printf("\n");
    }

    // realistic trajectory: start 0xFFFF at count 1, one Newton step per ++count
    Ptr<CoDelQueueDisc> q0 = CreateObject<CoDelQueueDisc>();
    uint32_t I = CoDelQueueDiscControlLawTest::T2C(q0, MilliSeconds(100));
    std::printf("TRAJECTORY interval=%u (100ms in CoDel units)\n", I);
    std::printf("count,recInvSqrt,recInvSqrt/65536,1/sqrt(count),ControlLaw(0,interval,rec),"
                "interval/sqrt(count)\n");
    uint16_t rec = 0xFFFF;
    for (uint32_t c = 1; c <= 40; c++)
    {
        if (c > 1)
        {
            rec = CoDelQueueDiscNewtonStepTest::Newton(rec, c);
        }
        std::printf("%u,%u,%.6f,%.6f,%u,%.1f\n",
                    c,
                    rec,
                    rec / 65536.0,
                    1 / std::sqrt(double(c)),
                    CoDelQueueDiscControlLawTest::Law(0, I, rec),
                    I / std::sqrt(double(c)));
    }

    // ---------------- Test 4: ControlLaw grid ----------------
    std::printf("CONTROLLAW grid t=Time2CoDel(0..20s step 100ms), interval=%u\n", I);
    std::printf("t_ms,codel_t");
    for (uint16_t r = 0xff; r > 0; r /= 2)
    {
        std::printf(",r=0x%02x", r);
    }
    std::printf("\n");
    for (Time tv = Seconds(0); tv <= Seconds(20); tv += MilliSeconds(100))
    {
        uint32_t ct = CoDelQueueDiscControlLawTest::T2C(q0, tv);
        std::printf("%" PRId64 ",%u", tv.GetMilliSeconds(), ct);
        for (uint16_t r = 0xff; r > 0; r /= 2)
        {
            std::printf(",%u", CoDelQueueDiscControlLawTest::Law(ct, I, r));
        }
        std::printf("\n");
    }

    for (QueueSizeUnit mode : {QueueSizeUnit::PACKETS, QueueSizeUnit::BYTES})
    {
        const char* m = mode == QueueSizeUnit::PACKETS ? "PACKETS" : "BYTES";
        uint32_t modeSize = mode == QueueSizeUnit::BYTES ? 1000 : 1;

        // ---------------- Test 1 ----------------
        {
            Ptr<CoDelQueueDisc> q = CreateObject<CoDelQueueDisc>();
            q->SetAttribute("MinBytes", UintegerValue(1000));
            q->SetAttribute("Interval", StringValue("50ms"));
            q->SetAttribute("Target", StringValue("4ms"));
            q->SetAttribute("MaxSize", QueueSizeValue(QueueSize(mode, modeSize * 1500)));
            q->Initialize();
            std::printf("TEST1 %s sizes:", m);
            std::printf(" %u", q->GetCurrentSize().GetValue());
            for (int i = 0; i < 6; i++)
            {
                q->Enqueue(Create<TItem>(Create<Packet>(1000), false));
                std::printf(" %u", q->GetCurrentSize().GetValue());
            }
            std::printf(" | after dequeues:");
            for (int i = 0; i < 7; i++)
            {
                Ptr<QueueDiscItem> it = q->Dequeue();
                std::printf(" %u%s", q->GetCurrentSize().GetValue(), it ? "" : "(null)");
            }
            std::printf(" | overlimit=%u targetDrops=%u\n",
                        q->GetStats().GetNDroppedPackets(CoDelQueueDisc::OVERLIMIT_DROP),
                        q->GetStats().GetNDroppedPackets(CoDelQueueDisc::TARGET_EXCEEDED_DROP));
        }
        // ---------------- Test 2 ----------------
        {
            Ptr<CoDelQueueDisc> q = CreateObject<CoDelQueueDisc>();
            q->SetAttribute("MaxSize", QueueSizeValue(QueueSize(mode, modeSize * 500)));
            q->SetAttribute("MinBytes", UintegerValue(1000));
            q->Initialize();
            Fill(q, 503, false);
            std::printf("TEST2 %s size=%u overlimit=%u\n",
                        m,
                        q->GetCurrentSize().GetValue(),
                        q->GetStats().GetNDroppedPackets(CoDelQueueDisc::OVERLIMIT_DROP));
        }
        // ---------------- Test 5 ----------------
        {
            std::printf("TEST5 %s (20 x 1000B, MaxSize 500 pkts, defaults)\n", m);
            Ptr<CoDelQueueDisc> q = MakeQ(mode, 500, false, Time(0));
            Fill(q, 20, false);
            Time w1 = 2 * q->GetTarget();
            Time w2 = w1 + 2 * q->GetInterval();
            Simulator::Schedule(w1, &DoDequeue, q, "deq1");
            Simulator::Schedule(w2, &DoDequeue, q, "deq2");
            Simulator::Schedule(w2, &DoDequeue, q, "deq3");
            Simulator::Schedule(w2 * 2, &DoDequeue, q, "deq4");
            Simulator::Run();
            Simulator::Destroy();
        }
        // ---------------- Test 6 ----------------
        {
            Time w1 = MilliSeconds(10);
            Time w2 = MilliSeconds(210);
            std::printf("TEST6.1 %s (UseEcn, 20 Not-ECT)\n", m);
            Ptr<CoDelQueueDisc> q = MakeQ(mode, 500, true, Time(0));
            Fill(q, 20, false);
            Simulator::Schedule(w1, &DoDequeue, q, "deq1");
            Simulator::Schedule(w2, &DoDequeue, q, "deq2");
            Simulator::Run();
            Simulator::Destroy();

            std::printf("TEST6.2 %s (UseEcn, 20 ECT)\n", m);
            q = MakeQ(mode, 500, true, Time(0));
            Fill(q, 20, true);
            Simulator::Schedule(w1, &DoDequeue, q, "deq1");
            Simulator::Schedule(w2, &DoDequeue, q, "deq2");
            Simulator::Schedule(w2, &DoDequeue, q, "deq3");
            Simulator::Schedule(w2 * 2, &DoDequeue, q, "deq4");
            Simulator::Run();
            Simulator::Destroy();

            std::printf("TEST6.3 %s (UseEcn, CeThreshold 2ms, 3 ECT then 17 Not-ECT)\n", m);
            q = MakeQ(mode, 500, true, MilliSeconds(2));
            Fill(q, 3, true);
            Fill(q, 17, false);
            Simulator::Schedule(w1, &DoDequeue, q, "deq1");
            Simulator::Schedule(w2, &DoDequeue, q, "deq2");
            Simulator::Schedule(w2, &DoDequeue, q, "deq3");
            Simulator::Schedule(w2 * 2, &DoDequeue, q, "deq4");
            Simulator::Run();
            Simulator::Destroy();

            std::printf("TEST6.4 %s (UseEcn, CeThreshold 2ms, 20 ECT)\n", m);
            q = MakeQ(mode, 500, true, MilliSeconds(2));
            Fill(q, 20, true);
            Simulator::Schedule(MilliSeconds(1), &DoDequeue, q, "deq1");
            Simulator::Schedule(MilliSeconds(3), &DoDequeue, q, "deq2");
            Simulator::Schedule(w1, &DoDequeue, q, "deq3");
            Simulator::Schedule(w2, &DoDequeue, q, "deq4");
            Simulator::Run();
            Simulator::Destroy();
        }
    }
    return 0;
}
