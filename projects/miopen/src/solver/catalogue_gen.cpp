// Writes MIOpen Private's solver catalogue as a C header, at build time: every solver of the
// registry with its id, algorithm, directions and name. Installed with <miopen/miopen_impl.h>
// (Private's include tree only), for the programs on Private's side of the split that must name
// solvers without asking the find-db: MIOpen Public validates a forwarded call's algorithm and
// solution id against it (Private's solution listing orders by find-db times and so reads it).
//
//     miopen_solver_catalogue_gen OUTPUT.h
#include <miopen/conv/solver.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

int main(int argc, char** argv)
{
    if(argc != 2)
    {
        std::fprintf(stderr, "usage: miopen_solver_catalogue_gen OUTPUT.h\n");
        return 2;
    }
    using miopen::conv::Direction;
    std::ostringstream h;
    h << "/* Generated at build time from MIOpen Private's solver registry (miopen_solver_catalogue_gen):\n"
         "   do not edit. Every convolution solver: id (miopenConvSolution_t::solution_id), algorithm\n"
         "   (miopenConvAlgorithm_t), the regular directions it computes (bit 0 forward, 1 backward data,\n"
         "   2 backward weights) and its name, in the registry's preference order. */\n"
         "#ifndef MIOPEN_GUARD_MIOPEN_SOLVER_CATALOGUE_H_\n"
         "#define MIOPEN_GUARD_MIOPEN_SOLVER_CATALOGUE_H_\n\n"
         "#include <stdint.h>\n\n"
         "struct miopen_solver_catalogue_entry\n{\n    uint64_t id;\n    int algorithm;\n"
         "    unsigned directions;\n    const char* name;\n};\n\n";
    const auto& solvers = miopen::conv::solverRegistry();
    h << "#define MIOPEN_SOLVER_CATALOGUE_SIZE " << solvers.size() << "\n\n"
      << "static const struct miopen_solver_catalogue_entry miopen_solver_catalogue[MIOPEN_SOLVER_CATALOGUE_SIZE] = {\n";
    for(const auto* s : solvers)
    {
        const unsigned dirs = (s->computes(Direction::Forward) ? 1u : 0u) |
                              (s->computes(Direction::BackwardData) ? 2u : 0u) |
                              (s->computes(Direction::BackwardWeights) ? 4u : 0u);
        h << "    {" << s->id() << "u, " << static_cast<int>(s->algorithm()) << ", " << dirs << "u, \"" << s->name()
          << "\"},\n";
    }
    h << "};\n\n#endif\n";
    // Rewritten only on change, so dependents do not rebuild needlessly.
    std::string old;
    {
        std::ifstream in(argv[1]);
        std::ostringstream o;
        o << in.rdbuf();
        old = o.str();
    }
    if(old == h.str())
        return 0;
    std::ofstream out(argv[1]);
    out << h.str();
    return out ? 0 : 1;
}
