/*
 * Our own driver for DriftingDroids (github.com/smack42/DriftingDroids, Java, GPL) used by
 * benchmarks/peers.py for `ricochet bench --peer-dd`.  Nothing of DriftingDroids is copied here:
 * this program only calls the public classes of its package driftingdroids.model (Board, Solver,
 * Solution, Move), compiled from its source in a scratch directory and given on the classpath.
 */

import driftingdroids.model.Board;
import driftingdroids.model.Move;
import driftingdroids.model.Solution;
import driftingdroids.model.Solver;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Solves puzzles read from stdin with DriftingDroids' optimal solver, one answer line per puzzle
 * line, in order (each answer is flushed, so it can be driven line by line).
 *
 * <h2>Input: one puzzle per line, fields separated by single spaces</h2>
 * <pre>LABEL WIDTH HEIGHT WALLS ROBOTS GOAL TARGET</pre>
 * <ul>
 * <li>LABEL: any word, echoed in the answer (benchmarks/peers.py sends "warmup..." for the warm-up
 *     puzzles and "p&lt;index&gt;" for the counted ones);</li>
 * <li>WALLS: WIDTH*HEIGHT hexadecimal digits, cell x + WIDTH*y in row-major order, each the walls of
 *     that cell with the bits N=1, E=2, S=4, W=8 (ricochet's Board.walls; DriftingDroids' NORTH=0,
 *     EAST=1, SOUTH=2, WEST=3 are the same bits as 1&lt;&lt;direction).  A cell walled on all four
 *     sides is an obstacle for DriftingDroids: that is how a blocked cell (the central block) is
 *     given, with the sides of its neighbours that face it walled too;</li>
 * <li>ROBOTS: the robots' cells, comma-separated, in ricochet's robot order (robot i is
 *     DriftingDroids' robot number i; colours do not matter to its solver, only the numbers);</li>
 * <li>GOAL: the number of the robot that must reach the target, or * for any robot (its "wildcard"
 *     goal, the vortex);</li>
 * <li>TARGET: the target cell.</li>
 * </ul>
 * Empty lines and lines starting with # are ignored.
 *
 * <h2>Output: one line per puzzle</h2>
 * <ul>
 * <li><code>LABEL ok MOVES NANOS PATH</code>: the optimal number of moves, the nanoseconds spent
 *     inside the solver (creating it and running it; the board is built before the clock starts),
 *     the solution as robot number + N/E/S/W, comma-separated ("-" when empty);</li>
 * <li><code>LABEL skip REASON</code>: DriftingDroids answers another question for this puzzle (see
 *     below), not solved;</li>
 * <li><code>LABEL unsolved NANOS</code>: it found no solution (its depth limit);</li>
 * <li><code>LABEL error MESSAGE</code>: a malformed line or a board it refused.</li>
 * </ul>
 *
 * <h2>Which solver, and on how many threads</h2>
 * DriftingDroids has two solvers in driftingdroids.model: SolverIDDFS and SolverBFS.  Neither
 * starts a thread (its GUI runs the solver in a background worker; the model itself is
 * single-threaded), and their constructors are not public: the only public way in is
 * {@link Solver#createInstance(Board)}, which is what the application itself calls and which
 * returns SolverIDDFS (iterative deepening with a transposition table: optimal in the number of
 * moves).  This harness uses exactly that, on the main thread, with the application's default
 * options set explicitly: SOLUTION_MODE.MINIMUM (among the optimal solutions it prefers the one
 * moving fewest robots; the length is the same either way) and rebound moves allowed (a robot may
 * move back the way it came, as in ricochet's plain rules).  benchmarks/peers.py starts the JVM
 * with -XX:ActiveProcessorCount=1 -XX:+UseSerialGC, so that garbage collection also runs on the
 * solving thread (and is counted) instead of on other cores.
 *
 * <h2>Puzzles skipped here</h2>
 * When Board.isSolution01() is true (the goal robot is on the target or can reach it in one move,
 * as DriftingDroids judges it), its solver plays by the printed game's rule against one-move
 * solutions, so its length is not the plain-rules optimum that ricochet computes: such puzzles
 * are answered "skip", not timed.  (Any-robot targets, where its search also demands a ricochet,
 * are left out by benchmarks/peers.py before they get here; the harness itself takes them.)
 *
 * <h2>JIT warm-up</h2>
 * The JVM compiles the solver's hot loops while it runs, so the first puzzles are slow.  The
 * caller sends a few warm-up puzzles first (benchmarks/peers.py: labels starting with "warmup",
 * random puzzles not in the measured set); they are solved and answered like any other and the
 * caller does not count them.
 *
 * <p>DriftingDroids' solver logs its progress with System.out.println: this harness points
 * System.out at a sink (the printing still happens inside the timed call, as in the application)
 * and writes its answers to the original standard output.
 */
public final class DriftingDroidsHarness {

    private static final String DIRECTIONS = "NESW";
    private static final String[] WALL_SIDES = {"N", "E", "S", "W"};

    private DriftingDroidsHarness() {
    }

    public static void main(final String[] args) throws Exception {
        final PrintStream answers = new PrintStream(new FileOutputStream(FileDescriptor.out), false, "UTF-8");
        System.setOut(new PrintStream(new OutputStream() {
            @Override
            public void write(final int b) {
            }

            @Override
            public void write(final byte[] b, final int off, final int len) {
            }
        }, false, "UTF-8"));
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            line = line.trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            final String[] f = line.split(" ");
            final String label = f[0];
            String answer;
            try {
                answer = solveLine(f);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception | OutOfMemoryError e) {
                answer = "error " + e.toString().replace('\n', ' ');
            }
            answers.println(label + " " + answer);
            answers.flush();
        }
    }

    /** The answer (without the label) for one line split into its fields. */
    private static String solveLine(final String[] f) throws InterruptedException {
        if (f.length != 7) {
            return "error expected 7 fields (LABEL WIDTH HEIGHT WALLS ROBOTS GOAL TARGET), got " + f.length;
        }
        final int width = Integer.parseInt(f[1]);
        final int height = Integer.parseInt(f[2]);
        final String walls = f[3];
        final String[] robotFields = f[4].split(",");
        final int goalRobot = "*".equals(f[5]) ? -1 : Integer.parseInt(f[5]);
        final int target = Integer.parseInt(f[6]);
        if (width < Board.WIDTH_MIN || width > Board.WIDTH_MAX || height < Board.HEIGHT_MIN
                || height > Board.HEIGHT_MAX || width * height > Board.SIZE_MAX) {
            return "error board size " + width + "x" + height + " is outside DriftingDroids' limits";
        }
        if (walls.length() != width * height) {
            return "error WALLS has " + walls.length() + " digits, expected " + width * height;
        }
        if (robotFields.length < 1 || robotFields.length > Board.ROBOT_COLOR_NAMES_SHORT.length) {
            return "error " + robotFields.length + " robots (DriftingDroids takes 1 to "
                    + Board.ROBOT_COLOR_NAMES_SHORT.length + ")";
        }
        if (goalRobot < -1 || goalRobot >= robotFields.length) {
            return "error no robot " + goalRobot;
        }
        if (target < 0 || target >= width * height) {
            return "error target " + target + " is off the board";
        }
        final int[] robots = new int[robotFields.length];
        for (int i = 0; i < robots.length; ++i) {
            robots[i] = Integer.parseInt(robotFields[i]);
        }

        final Board board = Board.createBoardFreestyle(null, width, height, robots.length);
        for (int cell = 0; cell < width * height; ++cell) {
            final int mask = Character.digit(walls.charAt(cell), 16);
            if (mask < 0) {
                return "error WALLS digit " + cell + " is not hexadecimal";
            }
            for (int dir = 0; dir < 4; ++dir) {
                if ((mask & (1 << dir)) != 0) {
                    board.setWall(cell, WALL_SIDES[dir], true);
                }
            }
        }
        if (!board.setRobots(robots)) {
            return "error the board refused the robots' cells (off the board, shared, or walled on all sides)";
        }
        board.removeGoals();
        board.addGoal(target, goalRobot, goalRobot < 0 ? Board.GOAL_VORTEX : Board.GOAL_CIRCLE);
        if (!board.setGoal(target)) {
            return "error the board refused the goal";
        }
        if (board.isSolution01()) {
            return "skip a 0- or 1-move puzzle (DriftingDroids then demands a ricochet)";
        }

        final long start = System.nanoTime();
        final Solver solver = Solver.createInstance(board);
        solver.setOptionSolutionMode(Solver.SOLUTION_MODE.MINIMUM);
        solver.setOptionAllowRebounds(true);
        final List<Solution> solutions = solver.execute();
        final long nanos = System.nanoTime() - start;

        final Solution best = solutions.isEmpty() ? null : solutions.get(0);
        if (best == null || best.size() == 0) {
            return "unsolved " + nanos;
        }
        final StringBuilder path = new StringBuilder();
        best.resetMoves();
        for (Move m = best.getNextMove(); m != null; m = best.getNextMove()) {
            if (path.length() > 0) {
                path.append(',');
            }
            path.append(m.robotNumber).append(DIRECTIONS.charAt(m.direction));
        }
        return "ok " + best.size() + " " + nanos + " " + path;
    }
}
