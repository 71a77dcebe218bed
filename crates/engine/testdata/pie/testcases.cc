// testcases.cc -- the numbers behind the assertions of ns-3.37's
// src/traffic-control/test/pie-queue-disc-test-suite.cc, from the same
// set-ups run against the installed libns3 (Debian 3.37), with every draw
// of PIE's uniform random variable, so that a port can reproduce each count
// exactly.  It asserts nothing itself.  Build: see run.sh.
//
// Output, per case (mode "p" packets or "b" bytes, case number as in the
// suite, 2 to 16; case 1, plain FIFO order, has no random element):
//   case <mode> <n> unforced_drops= forced_drops= unforced_marks=
//        max_prob_diff= max_prob= accu_error= expected_drops=
//   draws <mode> <n> <u> <u> ...
// and, first, ns-3's conversions between integer nanoseconds and seconds as
// a double (PIE computes in seconds from integer times):
//   invert <hi> <lo>                Invert(10^9), the Q64.64 factor
//   seconds <ns> <Time(ns).GetSeconds()>
//   from_seconds <x> <Seconds(x).GetNanoSeconds()>
// One difference from the suite's own run: each queue is disposed of before
// the next is made.  The suite just drops its pointer, which leaves the old
// queue's periodic CalculateP event scheduled on freed memory (and on any
// later queue allocated at the same address); here each queue has its own
// updates only.

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/traffic-control-module.h"

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
std::vector<double> g_draws;
}

class LoggedUniform : public UniformRandomVariable
{
  public:
    Ptr<UniformRandomVariable> m_inner;
    double GetValue() override
    {
        double u = m_inner->GetValue();
        g_draws.push_back(u);
        return u;
    }
};

// An item whose Mark() succeeds only if it is ECN-capable (as the suite's).
class Item : public QueueDiscItem
{
  public:
    Item(Ptr<Packet> p, const Address& addr, bool ecnCapable)
        : QueueDiscItem(p, addr, 0),
          m_ecn(ecnCapable)
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

struct Checks
{
    bool checkProb = false, ecnCapable = false, checkAccuProb = false, constAccuProb = false,
         checkMaxAccuProb = false;
    double setAccuProb = 0;
    double maxDropProbDiff = 0, prevDropProb = 0, maxDropProb = 0, accuProbError = 0,
           prevAccuProb = 0;
    uint32_t expectedDrops = 0;
};

// PieQueueDisc befriends this class (ns-3's own test case).
class PieQueueDiscTestCase
{
  public:
    static void LogDraws(Ptr<PieQueueDisc> q)
    {
        Ptr<LoggedUniform> l = CreateObject<LoggedUniform>();
        l->m_inner = q->m_uv;
        q->m_uv = l;
    }

    static void Enqueue(Ptr<PieQueueDisc> q, uint32_t size, Checks* c)
    {
        Address dest;
        if (c->constAccuProb)
        {
            q->m_accuProb = c->setAccuProb;
            if (c->checkMaxAccuProb)
            {
                q->m_dropProb = 0.001;
                QueueSize s = q->GetCurrentSize();
                if ((s.GetUnit() == QueueSizeUnit::PACKETS && s.GetValue() > 2) ||
                    (s.GetUnit() == QueueSizeUnit::BYTES && s.GetValue() > 2000))
                {
                    c->expectedDrops++;
                }
            }
        }
        q->Enqueue(Create<Item>(Create<Packet>(size), dest, c->ecnCapable));
        if (c->checkProb)
        {
            double p = q->m_dropProb;
            if (c->maxDropProb < p)
            {
                c->maxDropProb = p;
            }
            if (c->prevDropProb > 0.1)
            {
                double d = p - c->prevDropProb;
                if (c->maxDropProbDiff < d)
                {
                    c->maxDropProbDiff = d;
                }
            }
            c->prevDropProb = p;
        }
        if (c->checkAccuProb)
        {
            double p = q->m_dropProb;
            double a = q->m_accuProb;
            if (a != 0)
            {
                c->accuProbError = a - (c->prevAccuProb + p);
            }
            c->prevAccuProb = a;
        }
    }

    static void Dequeue(Ptr<PieQueueDisc> q)
    {
        q->Dequeue();
    }
};

struct Case
{
    int n;
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> attrs;
    double deqDelay;
    uint32_t nPkt;
    Checks c;
};

void
Run(const char* mode, QueueSizeUnit unit, Case k)
{
    uint32_t qSize = unit == QueueSizeUnit::BYTES ? 300000 : 300;
    Ptr<PieQueueDisc> q = CreateObject<PieQueueDisc>();
    q->SetAttribute("MaxSize", QueueSizeValue(QueueSize(unit, qSize)));
    for (auto& a : k.attrs)
    {
        q->SetAttribute(a.first, *a.second);
    }
    q->Initialize();
    PieQueueDiscTestCase::LogDraws(q);
    g_draws.clear();
    Checks* c = &k.c;
    for (uint32_t i = 0; i < k.nPkt; i++)
    {
        Simulator::Schedule(Time(Seconds((i + 1) * 0.01)), &PieQueueDiscTestCase::Enqueue, q,
                            1000u, c);
    }
    for (uint32_t i = 0; i < k.nPkt; i++)
    {
        Simulator::Schedule(Time(Seconds((i + 1) * k.deqDelay)), &PieQueueDiscTestCase::Dequeue,
                            q);
    }
    Simulator::Stop(Seconds(8.0));
    Simulator::Run();
    QueueDisc::Stats st = q->GetStats();
    std::printf("case %s %d unforced_drops=%u forced_drops=%u unforced_marks=%u "
                "max_prob_diff=%.17g max_prob=%.17g accu_error=%.17g expected_drops=%u\n",
                mode, k.n,
                st.GetNDroppedPackets(PieQueueDisc::UNFORCED_DROP),
                st.GetNDroppedPackets(PieQueueDisc::FORCED_DROP),
                st.GetNMarkedPackets(PieQueueDisc::UNFORCED_MARK),
                c->maxDropProbDiff, c->maxDropProb, c->accuProbError, c->expectedDrops);
    std::printf("draws %s %d", mode, k.n);
    for (double u : g_draws)
    {
        std::printf(" %.17g", u);
    }
    std::printf("\n");
    q->Dispose();
    Simulator::Destroy();
}

Ptr<AttributeValue>
T(double s)
{
    return Create<TimeValue>(Seconds(s));
}

Ptr<AttributeValue>
U(uint32_t v)
{
    return Create<UintegerValue>(v);
}

Ptr<AttributeValue>
B(bool v)
{
    return Create<BooleanValue>(v);
}

Ptr<AttributeValue>
D(double v)
{
    return Create<DoubleValue>(v);
}

int
main()
{
    int64x64_t inv = int64x64_t::Invert(1000000000);
    std::printf("invert %" PRId64 " %" PRIu64 "\n", inv.GetHigh(), inv.GetLow());
    // times around the delays PIE sees, and some far above a second (where
    // the long double sum in GetDouble rounds twice)
    uint64_t x = 88172645463325252ULL; // xorshift64 state
    std::vector<int64_t> ns = {0, 1, 2, 3, 999, 1000, 1000000, 7500000, 15000000, 30000000,
                               999999999, 1000000000, 1000000001, 1500000000, 123456789012LL,
                               4611686018427387903LL};
    for (int i = 0; i < 200; i++)
    {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        int shift = 10 + (x % 50);
        ns.push_back(int64_t(x >> shift));
    }
    for (int64_t v : ns)
    {
        std::printf("seconds %" PRId64 " %.17g\n", v, NanoSeconds(v).GetSeconds());
    }
    std::vector<double> secs = {0, 1e-9, 0.5e-9, 1.5e-9, 2.5e-9, 0.01, 0.03, 0.012, 0.014, 0.015,
                                0.02, 0.1, 1.0 / 3, 2.0 / 3, 1.5, 12.345678901234567, 1e-12};
    for (int i = 1; i <= 400; i++)
    {
        secs.push_back(i * 0.01);
        secs.push_back(i * 0.012);
        secs.push_back(i * 0.014);
        secs.push_back(i * 0.015);
        secs.push_back(i * 0.02);
    }
    for (int i = 0; i < 200; i++)
    {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        secs.push_back(double(x >> 11) / double(1ULL << 53) * (1 + (x % 7) * 0.5));
        secs.push_back(1500.0 * (1 + x % 100) / (1e5 + double(x >> 40)));
    }
    for (double v : secs)
    {
        std::printf("from_seconds %.17g %" PRId64 "\n", v, Seconds(v).GetNanoSeconds());
    }
    for (int m = 0; m < 2; m++)
    {
        QueueSizeUnit unit = m ? QueueSizeUnit::BYTES : QueueSizeUnit::PACKETS;
        const char* mode = m ? "b" : "p";
        auto tuned = [](double ref, double tupdate) {
            return std::vector<std::pair<std::string, Ptr<AttributeValue>>>{
                {"Tupdate", T(tupdate)},
                {"DequeueThreshold", U(10000)},
                {"QueueDelayReference", T(ref)},
                {"MaxBurstAllowance", T(0.1)}};
        };
        std::vector<Case> cases;
        cases.push_back({2, tuned(0.02, 0.03), 0.012, 400, {}});
        cases.push_back({3, tuned(0.08, 0.03), 0.012, 400, {}});
        cases.push_back({4, tuned(0.02, 0.03), 0.015, 400, {}});
        cases.push_back({5, tuned(0.02, 0.09), 0.015, 400, {}});
        cases.push_back({6, {{"UseDequeueRateEstimator", B(true)}}, 0.014, 400, {}});
        Checks prob;
        prob.checkProb = true;
        cases.push_back({7, {{"UseCapDropAdjustment", B(false)}}, 0.014, 400, prob});
        cases.push_back({8, {{"UseCapDropAdjustment", B(true)}}, 0.014, 400, prob});
        cases.push_back({9, {{"UseEcn", B(true)}, {"MarkEcnThreshold", D(0.3)}}, 0.014, 400, {}});
        Checks ecn;
        ecn.ecnCapable = true;
        cases.push_back({10, {{"UseEcn", B(false)}, {"MarkEcnThreshold", D(0.3)}}, 0.014, 400, ecn});
        Checks ecnProb = ecn;
        ecnProb.checkProb = true;
        cases.push_back({11, {{"UseEcn", B(true)}, {"MarkEcnThreshold", D(0.3)}}, 0.014, 400, ecnProb});
        Checks accu;
        accu.checkAccuProb = true;
        cases.push_back({12, {{"UseDerandomization", B(true)}}, 0.014, 400, accu});
        Checks accuConst;
        accuConst.constAccuProb = true;
        accuConst.setAccuProb = -0.16;
        cases.push_back({13, {{"UseDerandomization", B(true)}}, 0.014, 400, accuConst});
        Checks accuMax;
        accuMax.constAccuProb = true;
        accuMax.checkMaxAccuProb = true;
        accuMax.setAccuProb = 8.6;
        cases.push_back({14, {{"MaxBurstAllowance", T(0.0)}, {"UseDerandomization", B(true)}}, 0.014, 400, accuMax});
        cases.push_back({15, {{"ActiveThreshold", T(1)}}, 0.02, 100, {}});
        cases.push_back({16, {{"ActiveThreshold", T(0.001)}}, 0.02, 100, {}});
        for (auto& k : cases)
        {
            Run(mode, unit, k);
        }
    }
    return 0;
}
